import type { UpstreamRequest } from '../hooks/plugin-api';
import { parseToolJson } from '../text/exact-json-numbers';

/**
 * The output cap an upstream's 400 states for the model, when it refuses a translated call's output limit as too
 * large: OpenAI's "max_tokens is too large: 32000. This model supports at most 16384 completion tokens", DeepSeek's
 * "Invalid max_tokens value, the valid range of max_tokens is [1, 8192]". Claude Code asks 32000 of any model.
 */
export function outputCapIn(text: string): number | undefined {
  const stated = /supports at most (\d+) completion tokens/i.exec(text) ?? /valid range of max_tokens is \[\s*1\s*,\s*(\d+)\s*\]/i.exec(text);
  const cap = stated ? Number(stated[1]) : NaN;
  return Number.isSafeInteger(cap) && cap > 0 ? cap : undefined;
}

/** The limit fields a translated chat body may carry. */
const LIMIT_FIELDS = ['max_completion_tokens', 'max_tokens'] as const;

/**
 * A translated chat request with its output limit lowered to `cap`; undefined when it asks no more than that (or is
 * no translated chat request), so a refusal the cap does not explain stays the client's error.
 */
export function withOutputLimit(request: UpstreamRequest, cap: number): UpstreamRequest | undefined {
  if (request.mode !== 'translate' || request.format !== 'chat-completions' || request.body === undefined) return undefined;
  const json = parseToolJson(request.body.toString('utf8')) as Record<string, unknown>;
  let lowered = false;
  for (const field of LIMIT_FIELDS) {
    const limit = json[field];
    if (typeof limit === 'number' && limit > cap) {
      json[field] = cap;
      lowered = true;
    }
  }
  return lowered ? { ...request, body: Buffer.from(JSON.stringify(json)) } : undefined;
}
