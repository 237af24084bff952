import { estimateGeminiTokenCount, estimateMessagesTokenCount, isModelsEndpoint, type CustomHandler, type RouteDecision, type RouteQuery } from '@gateway/core';

/**
 * The upstream speaks chat completions: that endpoint is native (its bytes pass through unless the model name
 * needs rewriting), the other text formats are translated to it, and the model lists are the plugin's own. Token
 * counts are estimated (the service has no counter): Claude Code and Gemini CLI call them and must not fail.
 */
export function createPoolRouter(models: CustomHandler) {
  return (query: RouteQuery): RouteDecision | undefined => {
    if (isModelsEndpoint(query.endpoint)) return { mode: 'custom', handle: models };
    switch (query.endpoint) {
      case 'chat.completions':
        return { mode: 'passthrough', format: 'chat-completions' };
      case 'responses':
      case 'messages':
      case 'gemini.generateContent':
      case 'gemini.streamGenerateContent':
        return { mode: 'translate', upstream: 'chat-completions' };
      case 'messages.count_tokens':
        return { mode: 'custom', handle: estimateMessagesTokenCount };
      case 'gemini.countTokens':
        return { mode: 'custom', handle: estimateGeminiTokenCount };
      default:
        return undefined;
    }
  };
}
