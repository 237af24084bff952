import { expect } from 'chai';
import { decodeGeminiError } from '../../../../core/codecs/gemini/decode-gemini-error';
import type { GeminiErrorBody } from '../../../../core/codecs/gemini/gemini-types';
import { decodeMessagesError } from '../../../../core/codecs/shared/decode-messages-error';
import { decodeOpenAiError } from '../../../../core/codecs/shared/decode-openai-error';
import { encodeMessagesError, encodeMessagesStreamError } from '../../../../core/codecs/shared/encode-messages-error';
import { classifyUpstreamFailure } from '../../../../core/errors/classify-upstream-failure';
import type { GatewayError } from '../../../../core/errors/gateway-error';
import { fixtureJson, fixtureText } from '../../../helpers/fixtures';

const failure = (status: number, json: unknown) => ({ status, headers: {}, json, text: JSON.stringify(json) });

/** What an Anthropic client reads as `error.type`. */
function messagesType(error: GatewayError): unknown {
  return (encodeMessagesError(error).body as { error: { type: unknown } }).error.type;
}

/** The JSON of the `event: error` of an Anthropic SSE fixture. */
function sseErrorPayload(name: string): unknown {
  const event = fixtureText(name).split('\n\n').find((block) => block.startsWith('event: error\n'));
  return JSON.parse(event?.split('\n')[1].slice('data: '.length) ?? '{}');
}

describe('encodeMessagesError', () => {
  it('words another upstream\'s context overflow as Anthropic does ("prompt is too long"), which Claude Code compacts on', () => {
    const openAi = decodeOpenAiError({ message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.", type: 'invalid_request_error', code: 'context_length_exceeded' }, 400);
    const message = (error: GatewayError) => (encodeMessagesError(error).body as { error: { message: string } }).error.message;
    expect(message(openAi)).to.equal("prompt is too long: This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.");
    // An input that fits, with no room left for max_tokens: Anthropic's words for that, on which Claude Code retries
    // with less max_tokens (it would offer to compact on "prompt is too long", which cannot help).
    const completion = decodeOpenAiError({ message: "This model's maximum context length is 32768 tokens. However, you requested 33000 tokens (1000 in the messages, 32000 in the completion). Please reduce the length of the messages or completion.", type: 'BadRequestError' }, 400);
    expect(message(completion)).to.equal('input length and `max_tokens` exceed context limit: 1000 + 32000 > 32768, decrease input length or `max_tokens` and try again');
    const vllm = decodeOpenAiError({ message: "'max_tokens' or 'max_completion_tokens' is too large: 32000. This model's maximum context length is 32768 tokens and your request has 1000 input tokens (32000 > 32768 - 1000).", type: 'BadRequestError' }, 400);
    expect(message(vllm)).to.equal('input length and `max_tokens` exceed context limit: 1000 + 32000 > 32768, decrease input length or `max_tokens` and try again');
    const tooLong = decodeOpenAiError({ message: "This model's maximum context length is 32768 tokens. However, you requested 41000 tokens (40000 in the messages, 1000 in the completion).", type: 'BadRequestError' }, 400);
    expect(message(tooLong)).to.match(/^prompt is too long: /);
    const gemini = decodeGeminiError({ error: { code: 400, message: 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).', status: 'INVALID_ARGUMENT' } } as GeminiErrorBody);
    expect(message(gemini)).to.match(/^prompt is too long: The input token count/);
    // Anthropic's own wording, and other 400s, are left as they are.
    expect(message(decodeOpenAiError({ message: 'prompt is too long: 210000 tokens > 200000 maximum', type: 'invalid_request_error' }, 400))).to.equal('prompt is too long: 210000 tokens > 200000 maximum');
    expect(message(decodeOpenAiError({ message: 'Invalid value for temperature', type: 'invalid_request_error' }, 400))).to.equal('Invalid value for temperature');
  });

  it('keeps a Claude upstream\'s own type for a client error its status has no type for (408 timeout_error, 409 conflict_error)', () => {
    for (const [status, type] of [[408, 'timeout_error'], [409, 'conflict_error']] as const) {
      const error = classifyUpstreamFailure(failure(status, { type: 'error', error: { type, message: 'm' } }));
      expect(messagesType(error), String(status)).to.equal(type);
    }
    // An OpenAI upstream's 409 says nothing Anthropic-specific: the status's type.
    expect(messagesType(classifyUpstreamFailure(failure(409, { error: { message: 'm', type: 'invalid_request_error' } })))).to.equal('invalid_request_error');
  });

  describe('an OpenAI-family upstream, whose 401, 403 and 404 all say invalid_request_error', () => {
    const openAi = (type: string, code: string | null, message: string) => ({ error: { message, type, param: null, code } });
    /** name, upstream status, body, the Messages type, the status a Messages client gets when not the upstream's. */
    const cases: Array<[string, number, unknown, string, number?]> = [
      ['bad key (openai-chat/error-401.json)', 401, fixtureJson('openai-chat/error-401.json'), 'authentication_error'],
      ['model not allowed', 403, openAi('invalid_request_error', null, 'You are not allowed to sample from this model'), 'permission_error'],
      ['unknown video', 404, openAi('invalid_request_error', null, "Video with id 'video_does_not_exist' not found."), 'not_found_error'],
      ['unknown model', 404, openAi('invalid_request_error', 'model_not_found', 'The model `gpt-9` does not exist'), 'not_found_error'],
      ['body too large', 413, openAi('invalid_request_error', null, 'Request too large'), 'request_too_large'],
      ['bad body', 400, openAi('invalid_request_error', null, 'Unrecognized request argument supplied: foo'), 'invalid_request_error'],
      ['tokens per minute (openai-chat/error-429.json)', 429, fixtureJson('openai-chat/error-429.json'), 'rate_limit_error'],
      ['out of credit', 429, fixtureJson('openai-chat/error-429-insufficient-quota.json'), 'rate_limit_error'],
      ['server error', 500, openAi('server_error', null, 'The server had an error while processing your request.'), 'api_error'],
      // Anthropic's status for an overload: the SDK's OverloadedError.
      ['overloaded', 503, openAi('service_unavailable_error', null, 'The engine is currently overloaded'), 'overloaded_error', 529],
    ];
    for (const [name, status, body, expected, answered = status] of cases) {
      it(`${status} ${name} → ${answered} ${expected}`, () => {
        const error = classifyUpstreamFailure(failure(status, body));
        expect(encodeMessagesError(error)).to.deep.equal({
          status: answered,
          body: { type: 'error', error: { type: expected, message: (body as { error: { message: string } }).error.message } },
        });
      });
    }

    it('maps a mid-stream invalid_api_key to authentication_error in the stream event too', () => {
      const error = decodeOpenAiError({ message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' });
      expect(encodeMessagesStreamError(error)).to.deep.equal([
        { event: 'error', data: '{"type":"error","error":{"type":"authentication_error","message":"Incorrect API key provided"}}' },
      ]);
    });
  });

  describe('a Gemini upstream', () => {
    const cases: Array<[string, string]> = [
      ['gemini/error-400.json', 'invalid_request_error'],
      ['gemini/error-400-api-key.json', 'invalid_request_error'],
      ['gemini/error-429.json', 'rate_limit_error'],
    ];
    for (const [name, expected] of cases) {
      it(`${name} → ${expected}, never the rpc status name`, () => {
        const body = fixtureJson<GeminiErrorBody>(name);
        expect(messagesType(decodeGeminiError(body))).to.equal(expected);
        expect(messagesType(classifyUpstreamFailure(failure((body.error as { code?: number }).code ?? 0, body)))).to.equal(expected);
      });
    }

    it('maps PERMISSION_DENIED and NOT_FOUND by status', () => {
      expect(messagesType(decodeGeminiError({ error: { code: 403, message: 'denied', status: 'PERMISSION_DENIED' } }))).to.equal('permission_error');
      expect(messagesType(decodeGeminiError({ error: { code: 404, message: 'no model', status: 'NOT_FOUND' } }))).to.equal('not_found_error');
      expect(messagesType(decodeGeminiError({ error: { code: 503, message: 'busy', status: 'UNAVAILABLE' } }))).to.equal('overloaded_error');
    });
  });

  describe('a Claude upstream keeps exactly the type Claude sent', () => {
    for (const [name, status] of [['error-400.json', 400], ['error-429.json', 429], ['error-529.json', 529]] as const) {
      it(`anthropic-messages/${name}`, () => {
        const body = fixtureJson<{ error: { type: string; message: string } }>(`anthropic-messages/${name}`);
        const expected = { type: 'error', error: { type: body.error.type, message: body.error.message } };
        expect(encodeMessagesError(decodeMessagesError(body, status)).body).to.deep.equal(expected);
        expect(encodeMessagesError(classifyUpstreamFailure(failure(status, body))).body).to.deep.equal(expected);
      });
    }

    it('anthropic-messages/stream-error.sse, mid-stream', () => {
      const payload = sseErrorPayload('anthropic-messages/stream-error.sse');
      expect(encodeMessagesStreamError(decodeMessagesError(payload)).map((e) => JSON.parse(e.data))).to.deep.equal([payload]);
    });

    const documented: Array<[string, number]> = [
      ['invalid_request_error', 400], ['invalid_request_error', 422], ['authentication_error', 401], ['billing_error', 402],
      ['permission_error', 403], ['not_found_error', 404], ['request_too_large', 413], ['rate_limit_error', 429],
      ['api_error', 500], ['api_error', 503], ['timeout_error', 504], ['overloaded_error', 529],
    ];
    for (const [type, status] of documented) {
      it(`${status} ${type}, with and without the HTTP status`, () => {
        const body = { type: 'error', error: { type, message: `upstream said ${type}` } };
        expect(messagesType(decodeMessagesError(body, status))).to.equal(type);
        expect(messagesType(decodeMessagesError(body))).to.equal(type);
        expect(messagesType(classifyUpstreamFailure(failure(status, body)))).to.equal(type);
      });
    }
  });
});
