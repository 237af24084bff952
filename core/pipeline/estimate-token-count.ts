import { geminiCodec, unwrapCountTokensRequest } from '../codecs/gemini';
import { messagesCodec } from '../codecs/messages';
import { estimateInputTokens } from '../codecs/messages/estimate-input-tokens';
import type { CustomHandler } from '../hooks/plugin-api';

/**
 * `POST /v1/messages/count_tokens` for platforms without a token counter: the body is validated like a messages
 * request and the answer is an estimate in Anthropic's shape (`{input_tokens}`).
 */
export const estimateMessagesTokenCount: CustomHandler = async (request) => {
  const unified = messagesCodec.decodeRequest(request.body);
  return { status: 200, json: { input_tokens: estimateInputTokens(unified) } };
};

/** `:countTokens` for platforms without a token counter, in Gemini's shape (`{totalTokens}`). */
export const estimateGeminiTokenCount: CustomHandler = async (request, ctx) => {
  const unified = geminiCodec.decodeRequest(unwrapCountTokensRequest(request.body), { model: ctx.params.model, stream: false, countOnly: true });
  return { status: 200, json: { totalTokens: estimateInputTokens(unified) } };
};
