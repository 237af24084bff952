import type { UnifiedRequest } from '../../unified/unified-request';

/**
 * JSON mode without a schema (chat `response_format: json_object`, Gemini `responseMimeType: application/json`) where
 * the upstream has no such switch (Anthropic), or takes it only when the prompt asks for JSON in words (OpenAI refuses
 * json_object otherwise: "'messages' must contain the word 'json' in some form"): said to the model as a system line.
 */
export const JSON_MODE_INSTRUCTION = 'Answer with valid JSON only, with no text before or after it.';

/** Whether the request's system prompt or messages say `json` in words (any case), as OpenAI looks for it. */
export function mentionsJson(request: Pick<UnifiedRequest, 'system' | 'messages'>): boolean {
  const says = (text: string): boolean => /json/i.test(text);
  return request.system.some(says) || request.messages.some((message) => message.content.some((part) => part.type === 'text' && says(part.text)));
}
