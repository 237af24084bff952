import { isModelsEndpoint, type CustomHandler, type RouteDecision, type RouteQuery } from '@gateway/core';

export interface ClaudeCustomHandlers {
  /** Every models endpoint (createModelsHandler). */
  models: CustomHandler;
  countGeminiTokens: CustomHandler;
  /** `/v1/alpha/search` through the server web search tool (optional so a router can be built without it). */
  search?: CustomHandler;
}

/**
 * Claude speaks Messages natively: `/v1/messages` and its token counter pass through byte for byte; chat
 * completions, responses and Gemini native are translated to Messages; the model lists and Gemini's token
 * counter are answered by the plugin, and web search through the server web search tool.
 */
export function createClaudeRouter(handlers: ClaudeCustomHandlers) {
  return (query: RouteQuery): RouteDecision | undefined => {
    if (isModelsEndpoint(query.endpoint)) return { mode: 'custom', handle: handlers.models };
    switch (query.endpoint) {
      case 'messages':
      case 'messages.count_tokens':
        return { mode: 'passthrough', format: 'messages' };
      case 'chat.completions':
      case 'responses':
      case 'gemini.generateContent':
      case 'gemini.streamGenerateContent':
        return { mode: 'translate', upstream: 'messages' };
      case 'gemini.countTokens':
        return { mode: 'custom', handle: handlers.countGeminiTokens };
      case 'search':
        return handlers.search ? { mode: 'custom', handle: handlers.search } : undefined;
      default:
        return undefined;
    }
  };
}
