import { expect } from 'chai';
import { decodeGeminiError } from '../../../../core/codecs/gemini/decode-gemini-error';
import type { GeminiErrorBody } from '../../../../core/codecs/gemini/gemini-types';
import { decodeMessagesError } from '../../../../core/codecs/shared/decode-messages-error';
import { decodeOpenAiError } from '../../../../core/codecs/shared/decode-openai-error';
import { encodeOpenAiError, encodeOpenAiStreamError } from '../../../../core/codecs/shared/encode-openai-error';
import { encodeResponsesStreamError } from '../../../../core/codecs/responses/encode-responses-stream-error';
import { classifyUpstreamFailure } from '../../../../core/errors/classify-upstream-failure';
import type { GatewayError } from '../../../../core/errors/gateway-error';
import { fixtureJson, fixtureText } from '../../../helpers/fixtures';

const failure = (status: number, json: unknown) => ({ status, headers: {}, json, text: JSON.stringify(json) });

/** What an OpenAI client reads as `error.type` and `error.code`. */
function typeAndCode(error: GatewayError): unknown {
  const { type, code } = (encodeOpenAiError(error).body as { error: { type: unknown; code: unknown } }).error;
  return { type, code };
}

/** The JSON carried by the stream's error event. */
function streamTypeAndCode(error: GatewayError): unknown {
  const events = encodeOpenAiStreamError(error);
  expect(events).to.have.length(1);
  expect(events[0].event).to.equal(undefined);
  const { type, code } = (JSON.parse(events[0].data) as { error: { type: unknown; code: unknown } }).error;
  return { type, code };
}

/** The JSON of the `event: error` of an SSE fixture. */
function sseErrorPayload(name: string): unknown {
  const event = fixtureText(name).split('\n\n').find((block) => block.startsWith('event: error\n'));
  return JSON.parse(event?.split('\n')[1].slice('data: '.length) ?? '{}');
}

describe('encodeOpenAiError', () => {
  describe('an OpenAI upstream is shown what OpenAI sent', () => {
    for (const [name, status] of [['error-401.json', 401], ['error-429.json', 429], ['error-429-insufficient-quota.json', 429]] as const) {
      it(`openai-chat/${name}`, () => {
        const body = fixtureJson(`openai-chat/${name}`);
        expect(encodeOpenAiError(classifyUpstreamFailure(failure(status, body)))).to.deep.equal({ status, body });
      });
    }

    it('openai-chat/stream-error.sse, mid-stream', () => {
      const data = fixtureText('openai-chat/stream-error.sse').trim().split('\n\n').at(-1)?.slice('data: '.length) ?? '{}';
      const { error: fields } = JSON.parse(data) as { error: { type: string; message: string } };
      const [event] = encodeOpenAiStreamError(decodeOpenAiError(fields));
      expect(JSON.parse(event.data)).to.deep.include({ error: { message: fields.message, type: 'server_error', param: null, code: 'gw_upstream_error' } });
    });
  });

  describe('a Gemini upstream gets OpenAI types, not rpc status names', () => {
    const cases: Array<[string, string, string, string]> = [
      // fixture, type, code via decodeGeminiError, code via classifyUpstreamFailure
      ['gemini/error-400.json', 'invalid_request_error', 'gw_upstream_error', 'gw_upstream_error'],
      ['gemini/error-400-api-key.json', 'invalid_request_error', 'API_KEY_INVALID', 'gw_upstream_error'],
      ['gemini/error-429.json', 'rate_limit_error', 'gw_upstream_error', 'gw_rate_limited'],
    ];
    for (const [name, type, decodedCode, classifiedCode] of cases) {
      it(`${name} → ${type}`, () => {
        const body = fixtureJson<GeminiErrorBody>(name);
        expect(typeAndCode(decodeGeminiError(body))).to.deep.equal({ type, code: decodedCode });
        expect(typeAndCode(classifyUpstreamFailure(failure((body.error as { code?: number }).code ?? 0, body)))).to.deep.equal({ type, code: classifiedCode });
        expect(streamTypeAndCode(decodeGeminiError(body))).to.deep.equal({ type, code: decodedCode });
      });
    }

    it('maps the other rpc statuses by HTTP status', () => {
      const cases: Array<[number, string, string]> = [
        [403, 'PERMISSION_DENIED', 'permission_error'],
        [404, 'NOT_FOUND', 'invalid_request_error'],
        [500, 'INTERNAL', 'server_error'],
        [503, 'UNAVAILABLE', 'service_unavailable_error'],
        [504, 'DEADLINE_EXCEEDED', 'server_error'],
      ];
      for (const [code, status, type] of cases) {
        expect(typeAndCode(decodeGeminiError({ error: { code, message: 'x', status } }))).to.deep.include({ type });
      }
    });
  });

  describe('a Claude upstream gets OpenAI types, not Anthropic-only ones', () => {
    it('anthropic-messages/error-529.json → service_unavailable_error (decoded as 503) or server_error (raw 529)', () => {
      const body = fixtureJson('anthropic-messages/error-529.json');
      expect(encodeOpenAiError(decodeMessagesError(body, 529))).to.deep.equal({
        status: 503,
        body: { error: { message: 'Overloaded', type: 'service_unavailable_error', param: null, code: 'gw_upstream_overloaded' } },
      });
      expect(typeAndCode(classifyUpstreamFailure(failure(529, body)))).to.deep.equal({ type: 'server_error', code: 'gw_upstream_overloaded' });
    });

    it('anthropic-messages/stream-error.sse, mid-stream → service_unavailable_error', () => {
      const error = decodeMessagesError(sseErrorPayload('anthropic-messages/stream-error.sse'));
      expect(encodeOpenAiStreamError(error)).to.deep.equal([
        { data: '{"error":{"message":"Overloaded","type":"service_unavailable_error","param":null,"code":"gw_upstream_overloaded"}}' },
      ]);
    });

    const cases: Array<[string, number, string, string]> = [
      ['invalid_request_error', 400, 'invalid_request_error', 'gw_upstream_error'],
      ['authentication_error', 401, 'invalid_request_error', 'invalid_api_key'],
      ['billing_error', 402, 'invalid_request_error', 'gw_upstream_error'],
      ['permission_error', 403, 'permission_error', 'gw_upstream_error'],
      ['not_found_error', 404, 'invalid_request_error', 'gw_upstream_error'],
      ['request_too_large', 413, 'invalid_request_error', 'gw_upstream_error'],
      ['rate_limit_error', 429, 'rate_limit_error', 'gw_upstream_error'],
      ['api_error', 500, 'server_error', 'gw_upstream_error'],
      ['timeout_error', 504, 'server_error', 'gw_upstream_error'],
    ];
    for (const [upstream, status, type, code] of cases) {
      it(`${status} ${upstream} → ${type}`, () => {
        const error = decodeMessagesError({ type: 'error', error: { type: upstream, message: 'x' } }, status);
        expect(typeAndCode(error)).to.deep.equal({ type, code });
        expect(streamTypeAndCode(error)).to.deep.equal({ type, code });
      });
    }
  });

  describe('a conversation too long for the model, from any upstream, is context_length_exceeded (Codex compacts on it)', () => {
    const overflows: Array<[string, GatewayError]> = [
      ['Anthropic', decodeMessagesError({ type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 210000 tokens > 200000 maximum' } }, 400)],
      [
        'Gemini',
        decodeGeminiError({ error: { code: 400, status: 'INVALID_ARGUMENT', message: 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).' } }),
      ],
    ];
    for (const [upstream, error] of overflows) {
      it(upstream, () => {
        expect(typeAndCode(error)).to.deep.equal({ type: 'invalid_request_error', code: 'context_length_exceeded' });
        expect(streamTypeAndCode(error)).to.deep.equal({ type: 'invalid_request_error', code: 'context_length_exceeded' });
        const [event] = encodeResponsesStreamError(error, 3);
        expect(JSON.parse(event.data)).to.deep.include({ type: 'error', code: 'context_length_exceeded', sequence_number: 3 });
      });
    }

    it('but not another 400, nor an upstream code of its own', () => {
      expect(typeAndCode(decodeMessagesError({ type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: Field required' } }, 400))).to.deep.include({ code: 'gw_upstream_error' });
      const own = decodeOpenAiError({ message: 'prompt is too long', type: 'invalid_request_error', code: 'string_above_max_length' }, 400);
      expect(typeAndCode(own)).to.deep.include({ code: 'string_above_max_length' });
    });
  });
});
