import { GatewayError } from '../errors/gateway-error';

/**
 * The most one upstream stream event (an SSE event, a JSON-array element) may hold, in characters. The largest real
 * ones are Gemini's inline images (a few MB of base64); a parser holds an event whole until it ends, so without a
 * bound an upstream's endless line (a few KB of brotli inflate to gigabytes) filled the heap and killed the process.
 */
export const MAX_EVENT_CHARS = 32 * 1024 * 1024;

export function eventTooLarge(): GatewayError {
  return new GatewayError('GW_UPSTREAM_BAD_RESPONSE', `upstream stream event exceeds ${MAX_EVENT_CHARS / (1024 * 1024)} MB`);
}

/**
 * What a stream encoder holds of an answer until some part of it is whole (a tool call's arguments, the events held
 * behind them) past `limit`: an upstream that never completes it must not grow the heap without end.
 */
export function heldTooLong(what: string, limit = MAX_EVENT_CHARS): GatewayError {
  return new GatewayError('GW_UPSTREAM_BAD_RESPONSE', `upstream ${what} exceeds ${limit / (1024 * 1024)} MB`);
}

/**
 * The most of one streamed answer an encoder keeps (a Responses client's closing events repeat its whole output; a
 * Gemini client's calls wait whole), as the most of a non-streaming answer the gateway reads: calls and text that
 * each stay under MAX_EVENT_CHARS still add up.
 */
export const MAX_HELD_ANSWER_CHARS = 64 * 1024 * 1024;

export interface HeldBudget {
  /** Counts `chars` more held; throws heldTooLong once the total passes the limit. */
  add(chars: number): void;
  /** What was held has been let go (sent): the count starts again. */
  reset(): void;
}

/** Counts what an encoder keeps of one answer, up to `limit` (MAX_HELD_ANSWER_CHARS unless told). */
export function createHeldBudget(what: string, limit = MAX_HELD_ANSWER_CHARS): HeldBudget {
  let held = 0;
  return {
    add(chars) {
      held += chars;
      if (held > limit) throw heldTooLong(what, limit);
    },
    reset() {
      held = 0;
    },
  };
}
