import { isModelsEndpoint, type CustomHandler, type RouteDecision, type RouteQuery } from '@gateway/core';

/**
 * The Gemini API speaks the native format (passed through); chat completions, responses and messages are
 * translated to it; the model lists, Messages token counts, images (Gemini image models / Imagen), videos (Veo)
 * and web search (Google-search grounding) are answered by the plugin.
 */
export interface GeminiCustomHandlers {
  /** Every models endpoint (createModelsHandler). */
  models: CustomHandler;
  countMessagesTokens: CustomHandler;
  /** Images, videos and search (optional so that a router can be built without them in tests). */
  media?: Partial<Record<'images.generations' | 'images.edits' | 'images.get' | 'videos.create' | 'videos.remix' | 'videos.get' | 'videos.content' | 'search', CustomHandler>>;
}

export function createGeminiRouter(handlers: GeminiCustomHandlers) {
  return (query: RouteQuery): RouteDecision | undefined => {
    if (isModelsEndpoint(query.endpoint)) return { mode: 'custom', handle: handlers.models };
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
      case 'images.generations':
      case 'images.edits':
      case 'images.get':
      case 'videos.create':
      case 'videos.remix':
      case 'videos.get':
      case 'videos.content':
      case 'search': {
        const handle = handlers.media?.[query.endpoint];
        return handle ? { mode: 'custom', handle } : undefined;
      }
      default:
        return undefined;
    }
  };
}
