import type { UpstreamRequest } from '../hooks/plugin-api';
import { parseToolJson } from '../text/exact-json-numbers';

/** An output limit an upstream's 400 says the call may have. */
export interface OutputCap {
  cap: number;
  /**
   * The model's own cap: the model's later calls may start at it. Otherwise it is the room this request's input left
   * in the context window, which holds for this call only.
   */
  lasting: boolean;
}

/**
 * A request's state key (RequestContext.state): the output limit core lowered a translated call to, set once the
 * upstream refused the limit asked. A plugin that makes further calls of the same translation (Claude's continuations
 * of a paused turn) keeps them within it.
 */
export const OUTPUT_CAP_STATE = 'outputCap';

/**
 * Less room than this left by the input is no answer worth lowering the limit for: the context-window refusal goes to
 * the client as it came, and a client that compacts its history on it (Claude Code) does so.
 */
const MIN_ROOM_TOKENS = 1024;

/** The model's cap, as each upstream states it; the capture is the cap, or one above it where the range is exclusive. */
const MODEL_CAPS: ReadonlyArray<{ pattern: RegExp; exclusive?: true }> = [
  // OpenAI: "max_tokens is too large: 32000. This model supports at most 16384 completion tokens, whereas you provided 32000."
  { pattern: /supports at most (\d+) completion tokens/i },
  // DeepSeek: "Invalid max_tokens value, the valid range of max_tokens is [1, 8192]"
  { pattern: /valid range of max_tokens is \[\s*1\s*,\s*(\d+)\s*\]/i },
  // Anthropic: "max_tokens: 100000 > 64000, which is the maximum allowed number of output tokens for claude-sonnet-4-5"
  { pattern: /max_tokens: \d+ > (\d+), which is the maximum allowed number of output tokens/i },
  // Gemini: "… a maxOutputTokens value of 655360 but the supported range is from 1 (inclusive) to 8193 (exclusive)."
  { pattern: /maxOutputTokens value of \d+ but the supported range is from 1 \(inclusive\) to (\d+) \(exclusive\)/i, exclusive: true },
];

/** The context window and the input's tokens, as each upstream states them when the two do not fit together. */
const CONTEXT_ROOMS: ReadonlyArray<{ pattern: RegExp; window: number; input: number }> = [
  // vLLM: "This model's maximum context length is 32768 tokens and your request has 10694 input tokens (32000 > 32768 - 10694)."
  { pattern: /maximum context length is (\d+) tokens and your request has (\d+) input tokens/i, window: 1, input: 2 },
  // vLLM now: "… is 32768 tokens. However, you requested 32000 output tokens and your prompt contains at least 769 input
  // tokens, for a total of at least 32769 tokens." ("at least": the room may still be too much, and the one call fails.)
  { pattern: /maximum context length is (\d+) tokens\. However, you requested \d+ output tokens and your prompt contains (?:at least )?(\d+) input tokens/i, window: 1, input: 2 },
  // vLLM before 0.6, OpenAI's and DeepSeek's older wording, and servers copying it: "… is 32768 tokens. However, you requested 40000 tokens (8000 in the messages, 32000 in the completion)."
  { pattern: /maximum context length is (\d+) tokens\. However, you requested \d+ tokens \((\d+) in the messages, \d+ in the completion\)/i, window: 1, input: 2 },
  // Anthropic: "input length and `max_tokens` exceed context limit: 188240 + 21333 > 200000, decrease input length or `max_tokens` and try again"
  { pattern: /input length and `?max_tokens`? exceed context limit: (\d+) \+ \d+ > (\d+)/i, window: 2, input: 1 },
];

/**
 * The output limit an upstream's 400 states when it refuses a translated call's as too large: the model's cap
 * (OpenAI, DeepSeek, Anthropic, Gemini), or the room the input leaves in the context window (vLLM, Anthropic).
 * Claude Code asks 32000 of any model, and chat apps ask more than some models give.
 */
export function outputCapIn(text: string): OutputCap | undefined {
  for (const { pattern, exclusive } of MODEL_CAPS) {
    const stated = pattern.exec(text);
    if (!stated) continue;
    const cap = Number(stated[1]) - (exclusive ? 1 : 0);
    return Number.isSafeInteger(cap) && cap > 0 ? { cap, lasting: true } : undefined;
  }
  for (const { pattern, window, input } of CONTEXT_ROOMS) {
    const stated = pattern.exec(text);
    if (!stated) continue;
    const room = Number(stated[window]) - Number(stated[input]);
    return Number.isSafeInteger(room) && room >= MIN_ROOM_TOKENS ? { cap: room, lasting: false } : undefined;
  }
  return undefined;
}

/**
 * A translated request with its output limit lowered to `cap`; undefined when it asks no more than that (or is no
 * translated request), so a refusal the cap does not explain stays the client's error.
 */
export function withOutputLimit(request: UpstreamRequest, cap: number): UpstreamRequest | undefined {
  if (request.mode !== 'translate' || request.body === undefined || !(request.format in LIMIT_WRITERS)) return undefined;
  const json = parseToolJson(request.body.toString('utf8')) as Record<string, unknown>;
  return LIMIT_WRITERS[request.format]!(json, cap) ? { ...request, body: Buffer.from(JSON.stringify(json)) } : undefined;
}

/** Lowers a body's output limit to `cap`, in place; whether it asked more. */
type LimitWriter = (json: Record<string, unknown>, cap: number) => boolean;

const LIMIT_WRITERS: Partial<Record<UpstreamRequest['format'], LimitWriter>> = {
  'chat-completions': (json, cap) => lowerFields(json, ['max_completion_tokens', 'max_tokens'], cap),
  messages: lowerMessagesLimit,
  gemini: (json, cap) => {
    const config = json.generationConfig;
    return isRecord(config) && lowerFields(config, ['maxOutputTokens'], cap);
  },
};

/**
 * A Messages body's `max_tokens` lowered to `cap`, in place; whether it asked more. A thinking budget must stay under
 * `max_tokens`: one that no longer fits gets half the cap (the API's least budget being 1024), or thinking is left
 * out where not even that fits.
 */
export function lowerMessagesLimit(json: Record<string, unknown>, cap: number): boolean {
  if (!lowerFields(json, ['max_tokens'], cap)) return false;
  const thinking = json.thinking;
  if (isRecord(thinking) && typeof thinking.budget_tokens === 'number' && thinking.budget_tokens >= cap) {
    const budget = Math.floor(cap / 2);
    if (budget >= MIN_THINKING_BUDGET) thinking.budget_tokens = budget;
    else delete json.thinking;
  }
  return true;
}

const MIN_THINKING_BUDGET = 1024;

function lowerFields(json: Record<string, unknown>, fields: readonly string[], cap: number): boolean {
  let lowered = false;
  for (const field of fields) {
    const limit = json[field];
    if (typeof limit === 'number' && limit > cap) {
      json[field] = cap;
      lowered = true;
    }
  }
  return lowered;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
