import { StringDecoder } from 'node:string_decoder';
import { eventTooLarge, MAX_EVENT_CHARS } from './max-event-chars';
import type { WireEvent } from './wire-event';

export interface SseParser {
  /** Feeds the next piece of the body; returns the events it completed. */
  push(chunk: Buffer | string): WireEvent[];
  /** The body ended: dispatches an event that was not followed by a blank line. */
  end(): WireEvent[];
}

const LF = 10;
const CR = 13;
const BOM = 0xfeff;

/**
 * Incremental `text/event-stream` parser (WHATWG HTML, "Parsing an event stream").
 * Chunks may split anywhere, including inside a CRLF or a multi-byte character. Each new chunk
 * is scanned once: a line split over chunks is kept as pieces and joined once it ends.
 * Deviation from the standard: `end()` dispatches a last event that lacks its blank line,
 * because some upstreams close the stream right after the final `data:` line. An event larger than
 * MAX_EVENT_CHARS throws GW_UPSTREAM_BAD_RESPONSE.
 */
export function createSseParser(): SseParser {
  const decoder = new StringDecoder('utf8');
  let started = false;
  let afterCr = false;
  let partial: string[] = [];
  /** Characters held in `partial`: a line with no end in sight must not grow without bound. */
  let partialChars = 0;
  let eventName: string | undefined;
  let data = '';
  let hasData = false;

  function dispatch(out: WireEvent[]): void {
    if (hasData) out.push(eventName === undefined ? { data } : { event: eventName, data });
    eventName = undefined;
    data = '';
    hasData = false;
  }

  function processLine(line: string, out: WireEvent[]): void {
    if (line.length === 0) return dispatch(out);
    const colon = line.indexOf(':');
    if (colon === 0) return; // comment
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = '';
    if (colon !== -1) value = line.charCodeAt(colon + 1) === 32 ? line.slice(colon + 2) : line.slice(colon + 1);
    if (field === 'data') {
      data = hasData ? `${data}\n${value}` : value;
      hasData = true;
      if (data.length > MAX_EVENT_CHARS) throw eventTooLarge();
    } else if (field === 'event') {
      eventName = value.length > 0 ? value : undefined;
    }
    // `id`, `retry` and unknown fields carry nothing a gateway forwards.
  }

  function scan(text: string, out: WireEvent[]): void {
    const n = text.length;
    let i = 0;
    if (!started && n > 0) {
      started = true;
      if (text.charCodeAt(0) === BOM) i = 1;
    }
    if (afterCr && n > 0) {
      afterCr = false;
      if (text.charCodeAt(i) === LF) i += 1;
    }
    // Next LF / CR positions, searched lazily so a chunk without CR is scanned for it only once.
    let lf = -2;
    let cr = -2;
    while (i < n) {
      if (lf !== -1 && lf < i) lf = text.indexOf('\n', i);
      if (cr !== -1 && cr < i) cr = text.indexOf('\r', i);
      if (lf === -1 && cr === -1) break;
      const eol = lf === -1 ? cr : cr === -1 ? lf : lf < cr ? lf : cr;
      let line = text.slice(i, eol);
      if (partial.length > 0) {
        partial.push(line);
        line = partial.join('');
        partial = [];
        partialChars = 0;
      }
      processLine(line, out);
      i = eol + 1;
      if (text.charCodeAt(eol) === CR) {
        if (i === n) afterCr = true;
        else if (text.charCodeAt(i) === LF) i += 1;
      }
    }
    if (i < n) {
      partial.push(i === 0 ? text : text.slice(i));
      partialChars += n - i;
      if (partialChars + data.length > MAX_EVENT_CHARS) throw eventTooLarge();
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
      if (partial.length > 0) {
        const line = partial.join('');
        partial = [];
        processLine(line, out);
      }
      dispatch(out);
      return out;
    },
  };
}
