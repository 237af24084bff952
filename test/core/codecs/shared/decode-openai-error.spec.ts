import { expect } from 'chai';
import { decodeOpenAiError } from '../../../../core/codecs/shared/decode-openai-error';
import { fixtureJson } from '../../../helpers/fixtures';

describe('decodeOpenAiError', () => {
  const cases: Array<[string, Record<string, unknown>, number | undefined, string, number]> = [
    ['server_error', { type: 'server_error', message: 'x' }, undefined, 'GW_UPSTREAM_ERROR', 500],
    ['rate limit by code', { type: 'tokens', code: 'rate_limit_exceeded', message: 'x' }, undefined, 'GW_UPSTREAM_ERROR', 429],
    ['insufficient quota', { type: 'insufficient_quota', code: 'insufficient_quota', message: 'x' }, undefined, 'GW_UPSTREAM_ERROR', 429],
    ['bad key', { type: 'invalid_request_error', code: 'invalid_api_key', message: 'x' }, undefined, 'GW_UPSTREAM_ERROR', 401],
    ['invalid request', { type: 'invalid_request_error', message: 'x' }, undefined, 'GW_UPSTREAM_ERROR', 400],
    ['overloaded', { type: 'overloaded_error', message: 'x' }, undefined, 'GW_UPSTREAM_OVERLOADED', 503],
    ['unknown type', { type: 'mystery', message: 'x' }, undefined, 'GW_UPSTREAM_ERROR', 502],
    ['explicit HTTP status wins', { type: 'server_error', message: 'x' }, 503, 'GW_UPSTREAM_OVERLOADED', 503],
  ];
  for (const [name, fields, status, code, expectedStatus] of cases) {
    it(`${name} → ${code} ${expectedStatus}`, () => {
      const error = decodeOpenAiError(fields, status);
      expect([error.code, error.status]).to.deep.equal([code, expectedStatus]);
    });
  }

  it("reads an OpenRouter mid-stream error's numeric code as its status (429 rate limit, 503 overloaded)", () => {
    expect(decodeOpenAiError({ code: 503, message: 'Provider error 503' })).to.include({ status: 503, code: 'GW_UPSTREAM_OVERLOADED' });
    expect(decodeOpenAiError({ code: 429, message: 'Rate limited' })).to.include({ status: 429, code: 'GW_UPSTREAM_ERROR' });
    expect(decodeOpenAiError({ code: 42, message: 'odd' })).to.include({ status: 502 });
    expect(decodeOpenAiError({ code: 503, message: 'x' }, 400)).to.include({ status: 400 });
  });

  it('keeps type, code and param, and masks keys in the message', () => {
    const error = decodeOpenAiError({ message: 'Incorrect API key provided: sk-proj-abcdefghijklmnopqrstuvwxyz123456', type: 'invalid_request_error', code: 'invalid_api_key', param: 'model' });
    expect(error.upstreamType).to.equal('invalid_request_error');
    expect(error.upstreamCode).to.equal('invalid_api_key');
    expect(error.param).to.equal('model');
    expect(error.message).not.to.contain('abcdefghijklmnop');
  });

  it('reads the 429 fixture envelope', () => {
    const { error } = fixtureJson<{ error: Record<string, unknown> }>('openai-chat/error-429.json');
    expect(decodeOpenAiError(error).status).to.equal(429);
  });
});
