import {
  estimateGeminiTokenCount,
  GatewayError,
  geminiCodec,
  messagesCodec,
  readUpstreamBody,
  unwrapCountTokensRequest,
  type CustomHandler,
  type RequestContext,
  type UpstreamRequest,
  type UpstreamResponse,
} from '@gateway/core';
import { applyClaudeDefaults, type ClaudeDefaults } from './apply-claude-defaults';
import { addToolBetas } from './tool-betas';

/** What `/v1/messages/count_tokens` takes of a Messages body; it rejects generation fields such as max_tokens. */
const COUNT_FIELDS = ['model', 'messages', 'system', 'tools', 'tool_choice', 'thinking'];

/**
 * Gemini `:countTokens` (Gemini CLI calls it) answered by Anthropic's counter: the Gemini body is translated to a
 * Messages body, counted upstream, and answered as `{totalTokens}`.
 */
export function createCountGeminiTokens(
  call: (request: UpstreamRequest, ctx: RequestContext) => Promise<UpstreamResponse>,
  options: ClaudeDefaults & { anthropicVersion: string },
): CustomHandler {
  return async (request, ctx) => {
    const body = unwrapCountTokensRequest(request.body);
    const decoded = geminiCodec.decodeRequest(body, { model: ctx.params.model, stream: false, countOnly: true });
    // Anthropic's counter needs a message; an empty conversation (which Gemini counts) is estimated here instead.
    if (decoded.messages.length === 0) return estimateGeminiTokenCount(request, ctx);
    const unified = applyClaudeDefaults(decoded, options);
    const encoded = messagesCodec.encodeRequest({ ...unified, stream: false }).value;
    const json = Object.fromEntries(Object.entries(encoded).filter(([key]) => COUNT_FIELDS.includes(key)));
    const upstream = await call(
      // The counter refuses a server tool without its beta flag, as the Messages endpoint does.
      { mode: 'translate', format: 'messages', method: 'POST', path: '/v1/messages/count_tokens', headers: addToolBetas({ 'anthropic-version': options.anthropicVersion }, json.tools), json, stream: false },
      ctx,
    );
    const text = (await readUpstreamBody(upstream, 1024 * 1024)).toString('utf8');
    let tokens: unknown;
    try {
      tokens = (JSON.parse(text) as { input_tokens?: unknown }).input_tokens;
    } catch {
      tokens = undefined;
    }
    if (typeof tokens !== 'number') throw new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream token count has no input_tokens');
    return { status: 200, json: { totalTokens: tokens } };
  };
}
