import { expect } from 'chai';
import { fixtureJson } from '../../../test/helpers/fixtures';
import { classifyClaudeError } from '../src/classify-claude-error';

const NOW = Date.parse('2026-01-01T00:00:00Z');

describe('classifyClaudeError', () => {
  it('keeps type and message of an invalid request', () => {
    const error = classifyClaudeError({ status: 400, headers: {}, text: '', json: fixtureJson('anthropic-messages/error-400.json') }, [], NOW);
    expect(error).to.deep.include({ code: 'GW_UPSTREAM_ERROR', status: 400, upstreamType: 'invalid_request_error', message: 'max_tokens: Field required' });
  });

  it('turns a 429 into GW_RATE_LIMITED with the retry hint', () => {
    const error = classifyClaudeError({ status: 429, headers: { 'retry-after': '7' }, text: '', json: fixtureJson('anthropic-messages/error-429.json') }, [], NOW);
    expect(error).to.deep.include({ code: 'GW_RATE_LIMITED', status: 429, retryAfterMs: 7000, upstreamType: 'rate_limit_error' });
  });

  it("turns a 529 into GW_UPSTREAM_OVERLOADED, with no wait but the upstream's own retry-after", () => {
    const error = classifyClaudeError({ status: 529, headers: {}, text: '', json: fixtureJson('anthropic-messages/error-529.json') }, [], NOW);
    expect(error).to.deep.include({ code: 'GW_UPSTREAM_OVERLOADED', status: 503, retryAfterMs: undefined, upstreamType: 'overloaded_error', message: 'Overloaded' });
    // Rate-limit resets say nothing of an overload; a retry-after does.
    const resets = { 'anthropic-ratelimit-requests-reset': new Date(NOW + 50_000).toISOString(), 'anthropic-ratelimit-requests-remaining': '0' };
    expect(classifyClaudeError({ status: 529, headers: resets, text: '', json: fixtureJson('anthropic-messages/error-529.json') }, [], NOW).retryAfterMs).to.equal(undefined);
    expect(classifyClaudeError({ status: 529, headers: { 'retry-after': '4' }, text: '', json: fixtureJson('anthropic-messages/error-529.json') }, [], NOW).retryAfterMs).to.equal(4000);
  });

  it('masks the platform’s secrets in the upstream message', () => {
    const secret = 'session-secret-value-123456';
    const json = { type: 'error', error: { type: 'authentication_error', message: `bad credential ${secret}` } };
    const error = classifyClaudeError({ status: 401, headers: {}, text: '', json }, [secret], NOW);
    expect(error.message).not.to.include(secret);
    expect(error.message).to.include('3456');
  });

  it('reads a body that is not an Anthropic envelope the generic way', () => {
    const error = classifyClaudeError({ status: 502, headers: {}, text: '<html>Bad gateway</html>' }, [], NOW);
    expect(error).to.deep.include({ code: 'GW_UPSTREAM_ERROR', status: 502 });
  });
});
