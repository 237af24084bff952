import { estimateGeminiTokenCount, estimateMessagesTokenCount, type CustomHandler, type RouteDecision, type RouteQuery } from '@gateway/core';

/**
 * The upstream speaks chat completions: that endpoint is native (its bytes pass through unless the model name
 * needs rewriting), the other text formats are translated to it, and the model list is the plugin's own. Token
 * counts are estimated (the service has no counter): Claude Code and Gemini CLI call them and must not fail.
 */
export function createPoolRouter(listModels: CustomHandler) {
  return (query: RouteQuery): RouteDecision | undefined => {
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
      case 'models':
        return { mode: 'custom', handle: listModels };
      default:
        return undefined;
    }
  };
}
