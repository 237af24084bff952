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

/** The sizes an overflow message states: the input, the output asked for (`max_tokens`), the model's limit. */
export interface OverflowSizes {
  input: number;
  output: number;
  limit: number;
}

/**
 * The sizes in an OpenAI-compatible overflow message, where it states them: OpenAI's and vLLM's "maximum context
 * length is 32768 tokens. However, you requested 33000 tokens (1000 in the messages, 32000 in the completion)", and
 * vLLM's newer "'max_tokens' … is too large: 32000. This model's maximum context length is 32768 tokens and your
 * request has 1000 input tokens".
 */
export function overflowSizes(message: string): OverflowSizes | undefined {
  const limit = /maximum context length is (\d+) tokens/i.exec(message)?.[1];
  if (limit === undefined) return undefined;
  const split = /\((\d+) in the messages, (\d+) in the completion\)/i.exec(message);
  if (split) return { input: Number(split[1]), output: Number(split[2]), limit: Number(limit) };
  const input = /your request has (\d+) input tokens/i.exec(message)?.[1];
  const output = /max_(?:completion_)?tokens'?.{0,40}?is too large: (\d+)/i.exec(message)?.[1];
  if (input !== undefined && output !== undefined) return { input: Number(input), output: Number(output), limit: Number(limit) };
  return undefined;
}
