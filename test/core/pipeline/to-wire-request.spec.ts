import { expect } from 'chai';
import { CODECS } from '../../../core/codecs';
import type { RequestContext, UpstreamRequest } from '../../../core/hooks/plugin-api';
import { toWireRequest } from '../../../core/pipeline/to-wire-request';

function context(): RequestContext & { debugged: unknown[] } {
  const debugged: unknown[] = [];
  return { debugged, log: { debug: (_message: string, meta: unknown) => debugged.push(meta) } } as unknown as RequestContext & { debugged: unknown[] };
}

const BASE: UpstreamRequest = { mode: 'passthrough', format: 'chat-completions', method: 'POST', path: '/v1/chat/completions', headers: { 'x-a': '1' }, stream: false };

describe('toWireRequest', () => {
  it('keeps the client bytes of a passthrough request and clears its parsed body', () => {
    const body = Buffer.from('{"model":"m", "messages":[]}');
    const wire = toWireRequest({ ...BASE, body, json: { model: 'changed' } }, context());
    expect(wire.body).to.equal(body);
    expect(wire.json).to.equal(undefined);
    expect(wire).to.include({ method: 'POST', path: '/v1/chat/completions', stream: false });
    expect(wire.headers).to.deep.equal({ 'x-a': '1' });
  });

  it("serializes a plugin's json when there are no bytes yet", () => {
    const wire = toWireRequest({ ...BASE, json: { model: 'm', safetySettings: [] } }, context());
    expect(wire.body?.toString('utf8')).to.equal('{"model":"m","safetySettings":[]}');
    expect(wire.json).to.equal(undefined);
  });

  it('encodes a translated request in its upstream format and clears the unified request', () => {
    const unified = CODECS.messages.decodeRequest({ model: 'm', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
    const ctx = context();
    const wire = toWireRequest({ ...BASE, mode: 'translate', unified }, ctx);
    expect(JSON.parse(wire.body!.toString('utf8'))).to.deep.equal(CODECS['chat-completions'].encodeRequest(unified).value);
    expect(wire.unified).to.equal(undefined);
    expect(ctx.debugged).to.deep.equal([]);
  });

  it("prefers the plugin's json over re-encoding the unified request", () => {
    const unified = CODECS.messages.decodeRequest({ model: 'm', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
    const wire = toWireRequest({ ...BASE, mode: 'translate', unified, json: { shaped: true } }, context());
    expect(wire.body?.toString('utf8')).to.equal('{"shaped":true}');
  });

  it('returns a request without parsed parts as it is', () => {
    const request = { ...BASE, method: 'GET' };
    expect(toWireRequest(request, context())).to.equal(request);
  });
});
