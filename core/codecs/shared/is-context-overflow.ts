import type { GatewayError } from '../../errors/gateway-error';

/**
 * How each family says a conversation no longer fits the model: Anthropic ("prompt is too long: 210000 tokens >
 * 200000 maximum"), Gemini ("The input token count (…) exceeds the maximum number of tokens allowed"), OpenAI
 * ("This model's maximum context length is 128000 tokens…", code `context_length_exceeded`).
 */
const CONTEXT_OVERFLOW = /prompt is too long|input token count .{0,40}exceeds the maximum|exceeds the maximum number of tokens|maximum context length is/i;

/** Whether an upstream's 400 says the conversation is too long for the model; clients compact their history on it. */
export function isContextOverflow(error: GatewayError): boolean {
  return error.status === 400 && (error.upstreamCode === 'context_length_exceeded' || CONTEXT_OVERFLOW.test(error.message));
}
