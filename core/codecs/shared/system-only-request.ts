import type { UnifiedRequest } from '../../unified/unified-request';

/**
 * A request of system text only (a LangChain prompt made of a system message, a Responses call with `instructions`
 * and an empty input) as a request whose one user turn is that text: OpenAI answers such a request, while Anthropic and
 * Gemini need a turn. Any other request is returned as it is.
 */
export function systemOnlyAsUserTurn(request: UnifiedRequest): UnifiedRequest {
  const hasTurn = request.messages.some((message) => message.role !== 'system' && message.content.length > 0);
  if (hasTurn) return request;
  const texts = [...request.system, ...request.messages.flatMap((message) => message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])))];
  const text = texts.filter((t) => t.trim() !== '').join('\n\n');
  if (text === '') return request;
  return { ...request, system: [], messages: [{ role: 'user', content: [{ type: 'text', text }] }] };
}
