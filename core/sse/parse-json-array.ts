import { StringDecoder } from 'node:string_decoder';
import { GatewayError } from '../errors/gateway-error';
import { eventTooLarge, MAX_EVENT_CHARS } from './max-event-chars';
import type { WireEvent } from './wire-event';
import { isJsonWhitespace } from '../text/json-whitespace';

export interface JsonArrayParser {
  /** Feeds the next piece of the body; returns one event per element it completed (`data` = the element's exact text). */
  push(chunk: Buffer | string): WireEvent[];
  /** The body ended. Throws GW_UPSTREAM_BAD_RESPONSE (a stream cut short) when the array was not closed. */
  end(): WireEvent[];
  /**
   * The text that ends the array read so far validly with one more element (`json`), for a body that broke off;
   * `''` when the array was already closed; undefined when it broke inside an element, which nothing can mend.
   */
  closeWith(json: string): string | undefined;
  /** The text that closes the array read so far as it is: `''` when closed, undefined inside an element or after a comma. */
  close(): string | undefined;
}

const BEFORE_ARRAY = 0;
const BETWEEN = 1;
const IN_ELEMENT = 2;
const AFTER_ARRAY = 3;

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const BOM = 0xfeff;


function badResponse(message: string): GatewayError {
  return new GatewayError('GW_UPSTREAM_BAD_RESPONSE', `upstream JSON array stream: ${message}`);
}

function streamCut(): GatewayError {
  return new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream stream ended before the response was complete');
}

/**
 * Splits a streamed top-level JSON array (Gemini `:streamGenerateContent` without `alt=sse`) into
 * its elements as they complete. It tracks nesting, strings and escapes only; elements are not
 * validated here, the decoder parses them. Each chunk is scanned once; string bodies are skipped
 * with `indexOf`, which keeps large inline base64 payloads cheap. An element larger than MAX_EVENT_CHARS throws
 * GW_UPSTREAM_BAD_RESPONSE.
 */
export function createJsonArrayParser(): JsonArrayParser {
  const decoder = new StringDecoder('utf8');
  let started = false;
  let state = BEFORE_ARRAY;
  let depth = 0;
  let inString = false;
  let escaped = false;
  /** A scalar element (number, true, false, null) ends at the first delimiter. */
  let scalar = false;
  /** An element has ended and no comma followed it yet. */
  let needsComma = false;
  /** A comma came and no element after it yet: the array cannot close as it stands. */
  let afterComma = false;
  let partial: string[] = [];
  /** Characters held in `partial`: an element with no end in sight must not grow without bound. */
  let partialChars = 0;

  function scan(text: string, out: WireEvent[]): void {
    const n = text.length;
    let i = 0;
    if (!started && n > 0) {
      started = true;
      if (text.charCodeAt(0) === BOM) i = 1;
    }
    let start = 0;
    let nextQuote = -2;
    let nextBackslash = -2;

    const emit = (endExclusive: number): void => {
      let data = text.slice(start, endExclusive);
      if (partial.length > 0) {
        partial.push(data);
        data = partial.join('');
        partial = [];
        partialChars = 0;
      }
      out.push({ data });
      state = BETWEEN;
      needsComma = true;
      afterComma = false;
    };

    while (i < n) {
      if (state === IN_ELEMENT) {
        if (inString) {
          if (escaped) {
            escaped = false;
            i += 1;
            continue;
          }
          if (nextQuote !== -1 && nextQuote < i) nextQuote = text.indexOf('"', i);
          if (nextBackslash !== -1 && nextBackslash < i) nextBackslash = text.indexOf('\\', i);
          if (nextBackslash !== -1 && (nextQuote === -1 || nextBackslash < nextQuote)) {
            escaped = true;
            i = nextBackslash + 1;
            continue;
          }
          if (nextQuote === -1) {
            i = n;
            break;
          }
          inString = false;
          i = nextQuote + 1;
          if (depth === 0) emit(i);
          continue;
        }
        const c = text.charCodeAt(i);
        if (scalar) {
          if (c === COMMA || c === CLOSE_BRACKET || isJsonWhitespace(c)) {
            scalar = false;
            emit(i);
            continue; // the delimiter is handled in the BETWEEN state
          }
        } else if (c === QUOTE) {
          inString = true;
        } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
          depth += 1;
        } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
          depth -= 1;
          if (depth === 0) emit(i + 1);
        }
        i += 1;
        continue;
      }

      const c = text.charCodeAt(i);
      if (isJsonWhitespace(c)) {
        i += 1;
        continue;
      }
      if (state === BETWEEN) {
        if (c === CLOSE_BRACKET) state = AFTER_ARRAY;
        else if (c === COMMA) {
          needsComma = false;
          afterComma = true;
        }
        else {
          state = IN_ELEMENT;
          start = i;
          if (c === OPEN_BRACE || c === OPEN_BRACKET) depth = 1;
          else if (c === QUOTE) inString = true;
          else scalar = true;
        }
      } else if (state === BEFORE_ARRAY) {
        if (c !== OPEN_BRACKET) throw badResponse(`expected '[' but got ${JSON.stringify(text[i])}`);
        state = BETWEEN;
      } else {
        throw badResponse(`unexpected ${JSON.stringify(text[i])} after the closing ']'`);
      }
      i += 1;
    }
    if (state === IN_ELEMENT && start < n) {
      partial.push(start === 0 ? text : text.slice(start));
      partialChars += n - start;
      if (partialChars > MAX_EVENT_CHARS) throw eventTooLarge();
    }
  }

  return {
    push(chunk) {
      const out: WireEvent[] = [];
      scan(typeof chunk === 'string' ? chunk : decoder.write(chunk), out);
      return out;
    },
    end() {
      const out: WireEvent[] = [];
      scan(decoder.end(), out);
      // Cut before its closing ']' (in an element or between two), said as a cut SSE stream is.
      if (state !== AFTER_ARRAY) throw streamCut();
      return out;
    },
    closeWith(json) {
      if (state === BEFORE_ARRAY) return `[${json}]`;
      if (state === AFTER_ARRAY) return '';
      if (state === IN_ELEMENT) return undefined;
      return needsComma ? `,\r\n${json}]` : `${json}]`;
    },
    close() {
      if (state === BEFORE_ARRAY) return '[]';
      if (state === AFTER_ARRAY) return '';
      return state === IN_ELEMENT || afterComma ? undefined : ']';
    },
  };
}

/**
 * A Gemini stream body as the translation reads it: the JSON array it should be, or a lone error envelope, which Gemini
 * may answer in place of one (`{"error":{"code":429,…}}`, in a 200) and which is then one element: its error is the
 * client's, as in an array. Refused by the array parser before, it was a 502 without the upstream's words.
 */
export function createJsonArrayOrObjectParser(): Pick<JsonArrayParser, 'push' | 'end'> {
  const array = createJsonArrayParser();
  const decoder = new StringDecoder('utf8');
  let mode: 'undecided' | 'array' | 'object' = 'undecided';
  let text = '';
  const take = (piece: string): WireEvent[] => {
    if (mode === 'array') return array.push(piece);
    text += piece;
    if (text.length > MAX_EVENT_CHARS) throw eventTooLarge();
    if (mode === 'object') return [];
    const first = /[^\s\ufeff]/.exec(text);
    if (!first) return [];
    if (first[0] === '{') {
      mode = 'object';
      return [];
    }
    mode = 'array';
    const held = text;
    text = '';
    return array.push(held);
  };
  return {
    push: (chunk) => take(typeof chunk === 'string' ? chunk : decoder.write(chunk)),
    end() {
      const rest = take(decoder.end());
      if (mode === 'object') {
        const data = text.trim();
        // Only an error envelope stands for the stream; any other object is no stream Gemini sends, and one cut short
        // (no JSON) is a stream that ended early.
        const value = parseJson(data);
        if (value === NOT_JSON) throw streamCut();
        if (!isErrorEnvelope(value)) throw badResponse('expected \'[\' but got "{"');
        return [{ data }];
      }
      return [...rest, ...array.end()];
    },
  };
}

const NOT_JSON = Symbol('not JSON');

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}

function isErrorEnvelope(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as { error?: unknown }).error === 'object';
}
