import { messagesCodec, type RequestContext, type UpstreamRequest } from '@gateway/core';
import { applyClaudeDefaults } from './apply-claude-defaults';
import { addToolBetas } from './tool-betas';
import { withAutomaticCaching } from './prompt-caching';
import { offersServerTool, PAUSABLE_STATE } from './paused-turns/continue-paused-turns';
import { assertChatMediaAllowed } from './assert-chat-media';
import type { ResolvedClaudeOptions } from './options';
import { restoreThinking, toolCallIdsWithoutThinking } from './restore-thinking';
import type { ThinkingStore } from './thinking-store';

export interface ClaudeRequestDeps {
  options: Pick<ResolvedClaudeOptions, 'anthropicVersion' | 'defaultMaxTokens' | 'defaultBudgetTokens'> & Partial<Pick<ResolvedClaudeOptions, 'promptCaching'>>;
  thinking: Pick<ThinkingStore, 'load'>;
}

/**
 * The platform's requestTransform. Passthrough: the client's bytes and headers stay; only an absent
 * `anthropic-version` gets the configured one. Translation: Claude defaults (max_tokens, `-thinking`), the
 * chat-completions media rule, signed thinking restored for clients that could not carry it, then the Messages
 * body and `anthropic-version` (the client's own version header belongs to another API), with the beta flags its
 * server tools need.
 */
export async function toClaudeRequest(request: UpstreamRequest, ctx: RequestContext, deps: ClaudeRequestDeps): Promise<UpstreamRequest> {
  const { options } = deps;
  if (request.mode === 'passthrough' || !request.unified) {
    if (request.headers['anthropic-version']) return request;
    return { ...request, headers: { ...request.headers, 'anthropic-version': options.anthropicVersion } };
  }
  let unified = applyClaudeDefaults(request.unified, options);
  if (ctx.clientFormat === 'chat-completions') assertChatMediaAllowed(unified, ctx.platform);
  if (ctx.clientFormat !== 'messages') {
    const ids = toolCallIdsWithoutThinking(unified.messages);
    if (ids.length > 0) unified = { ...unified, messages: restoreThinking(unified.messages, await deps.thinking.load(ids)) };
  }
  const encoded = messagesCodec.encodeRequest(unified);
  const { warnings } = encoded;
  const value = options.promptCaching === false ? encoded.value : withAutomaticCaching(encoded.value);
  if (warnings.length > 0) ctx.log.debug('translation dropped fields', { warnings });
  // A server tool the translation offers (a Responses `code_interpreter`, Gemini's `codeExecution`) may want its beta.
  const headers = addToolBetas({ ...request.headers, 'content-type': 'application/json', 'anthropic-version': options.anthropicVersion }, value.tools);
  // Its turn may pause: the upstream call continues it from this body (see continuePausedTurns).
  if (offersServerTool(value.tools)) ctx.state.set(PAUSABLE_STATE, value);
  return { ...request, unified, json: value, headers };
}
