import { expect } from 'chai';
import { forwardableRequestHeaders, returnableResponseHeaders } from '../../../core/pipeline/forward-headers';

describe('forwardableRequestHeaders', () => {
  it('drops the headers the client\'s Connection header names (RFC 9110 §7.6.1), and keeps the others', () => {
    const out = forwardableRequestHeaders({ connection: 'keep-alive, X-Hop ,x-other', 'x-hop': 'hop-only', 'x-other': '1', 'anthropic-beta': 'b', 'content-type': 'application/json' });
    expect(out).to.deep.equal({ 'anthropic-beta': 'b', 'content-type': 'application/json' });
  });

  it('drops every credential header a client may send its license in (Azure-style api-key too)', () => {
    const out = forwardableRequestHeaders({ authorization: 'Bearer lic', 'x-api-key': 'lic', 'api-key': 'lic', 'x-goog-api-key': 'lic', 'user-agent': 'sdk' });
    expect(out).to.deep.equal({ 'user-agent': 'sdk' });
  });

  it('drops the headers some servers take to change the method or path, and the client\'s forwarded port', () => {
    const out = forwardableRequestHeaders({ 'x-http-method-override': 'DELETE', 'x-http-method': 'PUT', 'x-method-override': 'GET', 'x-original-url': '/admin', 'x-rewrite-url': '/x', 'x-forwarded-port': '443', 'user-agent': 'sdk' });
    expect(out).to.deep.equal({ 'user-agent': 'sdk' });
  });
});

describe('returnableResponseHeaders', () => {
  it('drops the headers the upstream\'s Connection header names', () => {
    const out = returnableResponseHeaders({ connection: 'x-upstream-hop', 'x-upstream-hop': 'v', 'content-type': 'application/json', 'x-ratelimit-remaining-requests': '9' });
    expect(out).to.deep.equal({ 'content-type': 'application/json', 'x-ratelimit-remaining-requests': '9' });
  });
});
