import { expect } from 'chai';
import { decodeResponsesResponse } from '../../../../core/codecs/responses/decode-response';
import { isGatewayError } from '../../../../core/errors/gateway-error';
import { fixtureJson } from '../../../helpers/fixtures';

describe('decodeResponsesResponse', () => {
  it('response-basic: message text, completed → stop, usage with details', () => {
    expect(decodeResponsesResponse(fixtureJson('openai-responses/response-basic.json'))).to.deep.equal({
      id: 'resp_68c7a1f0b2d48193a6f1c2e3d4b5a6970c1d2e3f4a5b6c7d',
      model: 'gpt-4.1-mini-2025-04-14',
      created: 1757935300,
      content: [{ type: 'text', text: 'Hello, nice to meet you!' }],
      finishReason: 'stop',
      usage: { inputTokens: 21, outputTokens: 8, totalTokens: 29, cachedInputTokens: 0, reasoningTokens: 0 },
    });
  });

  it('response-function-call: the call id is call_id, completed with calls → tool_calls', () => {
    const response = decodeResponsesResponse(fixtureJson('openai-responses/response-function-call.json'));
    expect(response.content).to.deep.equal([{ type: 'tool_call', id: 'call_Qm4nZ8xV2bT6yH0kL3pR7sWd', name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' }]);
    expect(response.finishReason).to.equal('tool_calls');
  });

  it('reads reasoning items (summary and encrypted content) and incomplete statuses', () => {
    const response = decodeResponsesResponse({
      id: 'resp_1', created_at: 1, model: 'm', status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' },
      output: [
        { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: 'a' }], encrypted_content: 'ENC' },
        { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'partial' }] },
        { id: 'ws_1', type: 'web_search_call', status: 'completed' },
      ],
      usage: { input_tokens: 5, output_tokens: 7, total_tokens: 12, output_tokens_details: { reasoning_tokens: 3 } },
    });
    expect(response.content).to.deep.equal([
      { type: 'reasoning', text: 'a', provider: 'responses', id: 'rs_1', redactedData: 'ENC' },
      { type: 'text', text: 'partial' },
    ]);
    expect(response.finishReason).to.equal('length');
    expect(response.usage).to.deep.equal({ inputTokens: 5, outputTokens: 7, totalTokens: 12, reasoningTokens: 3 });
    const filtered = decodeResponsesResponse({ id: 'r', output: [], status: 'incomplete', incomplete_details: { reason: 'content_filter' } });
    expect(filtered.finishReason).to.equal('content_filter');
  });

  it('throws the upstream error for an error body and GW_UPSTREAM_BAD_RESPONSE for a body without output', () => {
    const codeOf = (body: unknown): string | undefined => {
      try {
        decodeResponsesResponse(body);
      } catch (e) {
        return isGatewayError(e) ? e.code : 'not a GatewayError';
      }
      return undefined;
    };
    expect(codeOf(fixtureJson('openai-chat/error-401.json'))).to.equal('GW_UPSTREAM_ERROR');
    expect(codeOf({ id: 'x' })).to.equal('GW_UPSTREAM_BAD_RESPONSE');
  });
});
