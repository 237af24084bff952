import type { CustomHandler, RouteDecision, RouteQuery } from '@gateway/core';

/**
 * The Gemini API speaks the native format (passed through); chat completions, responses and messages are
 * translated to it; the two model lists and Messages token counts are answered by the plugin.
 */
export function createGeminiRouter(handlers: { openAiModels: CustomHandler; geminiModels: CustomHandler; countMessagesTokens: CustomHandler }) {
  return (query: RouteQuery): RouteDecision | undefined => {
    switch (query.endpoint) {
      case 'gemini.generateContent':
      case 'gemini.streamGenerateContent':
      case 'gemini.countTokens':
        return { mode: 'passthrough', format: 'gemini' };
      case 'chat.completions':
      case 'responses':
      case 'messages':
        return { mode: 'translate', upstream: 'gemini' };
      case 'messages.count_tokens':
        return { mode: 'custom', handle: handlers.countMessagesTokens };
      case 'models':
        return { mode: 'custom', handle: handlers.openAiModels };
      case 'gemini.models':
        return { mode: 'custom', handle: handlers.geminiModels };
      default:
        return undefined;
    }
  };
}
