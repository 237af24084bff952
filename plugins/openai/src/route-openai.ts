import { estimateGeminiTokenCount, estimateMessagesTokenCount, isModelsEndpoint, type CustomHandler, type EndpointId, type RouteDecision, type RouteQuery } from '@gateway/core';

/** The endpoints the plugin answers with handlers of its own (images, videos, search; `models` serves every models endpoint). */
export type OpenAiCustomHandlers = Partial<Record<EndpointId, CustomHandler>>;

/**
 * An OpenAI-compatible upstream speaks chat completions and responses natively; the other client formats are
 * translated to chat completions, which every compatible service has. Token counts are estimated; models, images,
 * videos and search have handlers of their own.
 */
export function createOpenAiRouter(handlers: OpenAiCustomHandlers) {
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
      default: {
        const handle = handlers[isModelsEndpoint(query.endpoint) ? 'models' : query.endpoint];
        return handle ? { mode: 'custom', handle } : undefined;
      }
    }
  };
}
