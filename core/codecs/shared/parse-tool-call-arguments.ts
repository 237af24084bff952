import { GatewayError } from '../../errors/gateway-error';

/**
 * A tool call's `arguments` (JSON text, as OpenAI sends it) → the object that Anthropic `input` and
 * Gemini `args` want. Empty text means `{}`. Text that is not a JSON object throws GW_INVALID_REQUEST
 * naming `param`: sending it on would make the upstream reject the whole conversation less clearly.
 */
export function parseToolCallArguments(text: string, param: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new GatewayError('GW_INVALID_REQUEST', `${param}: arguments are not valid JSON`, { param });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new GatewayError('GW_INVALID_REQUEST', `${param}: arguments must be a JSON object`, { param });
  }
  return value as Record<string, unknown>;
}
