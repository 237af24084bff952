import { estimateGeminiTokenCount, estimateMessagesTokenCount, type CustomHandler, type RouteDecision, type RouteQuery } from '@gateway/core';

/**
 * An OpenAI-compatible upstream speaks chat completions and responses natively; the other client formats are
 * translated to chat completions, which every compatible service has.
 */
export function createOpenAiRouter(listModels: CustomHandler) {
  return (query: RouteQuery): RouteDecision | undefined => {
    switch (query.endpoint) {
      case 'chat.completions':
        return { mode: 'passthrough', format: 'chat-completions' };
      case 'responses':
        return { mode: 'passthrough', format: 'responses' };
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
