import { expect } from 'chai';
import { encodeGeminiError, encodeGeminiStreamError } from '../../../../core/codecs/shared/encode-gemini-error';
import { encodeMessagesError, encodeMessagesStreamError } from '../../../../core/codecs/shared/encode-messages-error';
import { encodeOpenAiError } from '../../../../core/codecs/shared/encode-openai-error';
import { GatewayError } from '../../../../core/errors/gateway-error';
import type { ErrorCode } from '../../../../core/errors/codes';

const cases: Array<[ErrorCode, number, string, string, string]> = [
  // code, status, openai type, messages type, gemini status
  ['GW_INVALID_REQUEST', 400, 'invalid_request_error', 'invalid_request_error', 'INVALID_ARGUMENT'],
  ['GW_UNAUTHORIZED', 401, 'invalid_request_error', 'authentication_error', 'UNAUTHENTICATED'],
  ['GW_FORBIDDEN', 403, 'permission_error', 'permission_error', 'PERMISSION_DENIED'],
  ['GW_ROUTE_NOT_FOUND', 404, 'invalid_request_error', 'not_found_error', 'NOT_FOUND'],
  ['GW_BODY_TOO_LARGE', 413, 'invalid_request_error', 'request_too_large', 'INVALID_ARGUMENT'],
  ['GW_MEDIA_NOT_ALLOWED', 415, 'invalid_request_error', 'invalid_request_error', 'INVALID_ARGUMENT'],
  ['GW_RATE_LIMITED', 429, 'rate_limit_error', 'rate_limit_error', 'RESOURCE_EXHAUSTED'],
  ['GW_UPSTREAM_UNREACHABLE', 502, 'server_error', 'api_error', 'INTERNAL'],
  ['GW_NO_CREDENTIAL', 503, 'service_unavailable_error', 'api_error', 'UNAVAILABLE'],
  ['GW_UPSTREAM_TIMEOUT', 504, 'server_error', 'timeout_error', 'DEADLINE_EXCEEDED'],
];

describe('error encoders of the three families (DECISIONS §5)', () => {
  for (const [code, status, openaiType, messagesType, geminiStatus] of cases) {
    it(`${code} → ${status}`, () => {
      const error = new GatewayError(code, `problem with ${code}`, { param: 'messages[0]' });
      expect(encodeOpenAiError(error)).to.deep.equal({
        status,
        body: { error: { message: `problem with ${code}`, type: openaiType, param: 'messages[0]', code: status === 401 ? 'invalid_api_key' : code.toLowerCase() } },
      });
      expect(encodeMessagesError(error)).to.deep.equal({ status, body: { type: 'error', error: { type: messagesType, message: `problem with ${code}` } } });
      expect(encodeGeminiError(error)).to.deep.equal({ status, body: { error: { code: status, message: `problem with ${code}`, status: geminiStatus } } });
    });
  }

  it('keeps the upstream type and code for same-family clients', () => {
    const error = new GatewayError('GW_RATE_LIMITED', 'slow down', { upstreamType: 'tokens', upstreamCode: 'rate_limit_exceeded' });
    expect((encodeOpenAiError(error).body as { error: { type: string; code: string } }).error).to.include({ type: 'tokens', code: 'rate_limit_exceeded' });
    const overloaded = new GatewayError('GW_UPSTREAM_OVERLOADED', 'Overloaded', { status: 529, upstreamType: 'overloaded_error' });
    expect(encodeMessagesError(overloaded)).to.deep.equal({ status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } });
  });

  it('says how long to wait in a Gemini RetryInfo detail, where Google clients read it (seconds, rounded up)', () => {
    const limited = new GatewayError('GW_RATE_LIMITED', 'every token is rate-limited', { retryAfterMs: 36_200 });
    expect(encodeGeminiError(limited).body).to.deep.equal({
      error: {
        code: 429,
        message: 'every token is rate-limited',
        status: 'RESOURCE_EXHAUSTED',
        details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '37s' }],
      },
    });
    // A bad request with a hint (an upstream's retry-after on a 400) is not something to retry.
    expect(encodeGeminiError(new GatewayError('GW_INVALID_REQUEST', 'bad', { retryAfterMs: 5000 })).body).not.to.have.nested.property('error.details');
  });

  it('renders stream errors as the format expects', () => {
    const error = new GatewayError('GW_UPSTREAM_TIMEOUT', 'idle');
    expect(encodeMessagesStreamError(error)).to.deep.equal([{ event: 'error', data: '{"type":"error","error":{"type":"timeout_error","message":"idle"}}' }]);
    expect(encodeGeminiStreamError(error)).to.deep.equal([{ data: '{"error":{"code":504,"message":"idle","status":"DEADLINE_EXCEEDED"}}' }]);
  });
});
