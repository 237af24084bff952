import { expect } from 'chai';
import { classifyUpstreamFailure, parseRetryAfter } from '../../../core/errors/classify-upstream-failure';

describe('classifyUpstreamFailure', () => {
  const failure = (status: number, json: unknown, headers: Record<string, string> = {}) => ({ status, headers, json, text: JSON.stringify(json) });

  it('reads the OpenAI envelope and keeps the upstream status, type, code and param', () => {
    const error = classifyUpstreamFailure(failure(400, { error: { message: 'bad thing', type: 'invalid_request_error', code: 'x', param: 'temperature' } }));
    expect(error).to.include({ code: 'GW_UPSTREAM_ERROR', status: 400, message: 'bad thing', upstreamType: 'invalid_request_error', upstreamCode: 'x', param: 'temperature' });
    expect(classifyUpstreamFailure(failure(400, { error: { message: 'm', param: null } })).param).to.equal(undefined);
  });

  it('reads the Anthropic and Gemini envelopes', () => {
    expect(classifyUpstreamFailure(failure(529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }))).to.include({ code: 'GW_UPSTREAM_OVERLOADED', status: 529, upstreamType: 'overloaded_error' });
    expect(classifyUpstreamFailure(failure(403, { error: { code: 403, message: 'denied', status: 'PERMISSION_DENIED' } }))).to.include({ status: 403, message: 'denied', upstreamType: 'PERMISSION_DENIED' });
    expect(classifyUpstreamFailure(failure(429, [{ error: { code: 429, message: 'quota', status: 'RESOURCE_EXHAUSTED' } }]))).to.include({ code: 'GW_RATE_LIMITED', message: 'quota' });
  });

  it('honours retry-after and falls back to the status for a non-JSON body', () => {
    const error = classifyUpstreamFailure({ status: 429, headers: { 'retry-after': '12' }, text: 'Too Many Requests', json: undefined });
    expect(error).to.include({ code: 'GW_RATE_LIMITED', retryAfterMs: 12000, message: 'Too Many Requests' });
    expect(classifyUpstreamFailure({ status: 502, headers: {}, text: '', json: undefined }).message).to.equal('upstream answered HTTP 502');
  });

  it('masks secrets echoed by the upstream', () => {
    const error = classifyUpstreamFailure(failure(401, { error: { message: 'bad key sk-proj-abcdefghijklmnop1234 and my-own-secret-value' } }), ['my-own-secret-value']);
    expect(error.message).not.to.include('abcdefghijklmnop');
    expect(error.message).not.to.include('my-own-secret-value');
  });

  it('masks them in the param, type and code it keeps for the client as well', () => {
    const key = 'rawopenaiSECRETabcdefgh0001';
    const error = classifyUpstreamFailure(failure(400, { error: { message: 'bad', type: key, code: key, param: key } }), [key]);
    expect(error).to.include({ param: '...0001', upstreamType: '...0001', upstreamCode: '...0001' });
  });

  it('parses retry-after seconds and dates', () => {
    expect(parseRetryAfter('3')).to.equal(3000);
    expect(parseRetryAfter(new Date(Date.now() + 10_000).toUTCString())).to.be.within(8000, 10_000);
    expect(parseRetryAfter('soon')).to.equal(undefined);
  });
});
