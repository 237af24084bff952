import { geminiModelPath } from '../codecs/gemini';
import type { UnifiedRequest, WireFormat } from '../unified/unified-request';

/** Where each wire format's generation endpoint lives on an upstream that speaks it natively. */
export function defaultUpstreamPath(format: WireFormat, request: UnifiedRequest): string {
  switch (format) {
    case 'chat-completions':
      return '/v1/chat/completions';
    case 'responses':
      return '/v1/responses';
    case 'messages':
      return '/v1/messages';
    case 'gemini':
      return geminiModelPath(request.model, request.stream);
  }
}
