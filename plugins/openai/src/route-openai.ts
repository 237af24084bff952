import { estimateGeminiTokenCount, estimateMessagesTokenCount, isModelsEndpoint, type CustomHandler, type EndpointId, type RouteDecision, type RouteQuery } from '@gateway/core';

/** The endpoints the plugin answers with handlers of its own (images, videos, search; `models` serves every models endpoint). */
export type OpenAiCustomHandlers = Partial<Record<EndpointId, CustomHandler>>;

/**
 * An OpenAI-compatible upstream speaks chat completions and responses natively (`responses: 'chat'`: a service
 * without the Responses API gets them translated to chat completions); the other client formats are translated to
 * chat completions, which every compatible service has. Token counts are estimated; models, images, videos and search
 * have handlers of their own.
 */
export function createOpenAiRouter(handlers: OpenAiCustomHandlers, options: { responses?: 'passthrough' | 'chat' } = {}) {
  const responses: RouteDecision = options.responses === 'chat' ? { mode: 'translate', upstream: 'chat-completions' } : { mode: 'passthrough', format: 'responses' };
  return (query: RouteQuery): RouteDecision | undefined => {
    switch (query.endpoint) {
      case 'chat.completions':
        return { mode: 'passthrough', format: 'chat-completions' };
      case 'responses':
        return responses;
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
