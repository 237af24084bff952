import type { WireFormat } from '../unified/unified-request';
import type { WireEvent } from './wire-event';

/**
 * Response headers of every event stream the gateway sends; `x-accel-buffering` stops nginx from buffering it.
 * No `connection` header: Node sends the right one itself, and a fixed `keep-alive` would keep the connection of a
 * client that asked for `close` open after the answer (RFC 9112 §9.6).
 */
export const SSE_HEADERS = Object.freeze({
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
});

const LINE_BREAK = /\r\n|\r|\n/;

/** How an event stream ends its lines. */
export type SseNewline = '\n' | '\r\n';

/**
 * The line ending of a format's own event streams: Gemini's `alt=sse` ends every line with CRLF (fixtures/gemini),
 * the others with LF.
 */
export function sseNewlineOf(format: WireFormat | 'other'): SseNewline {
  return format === 'gemini' ? '\r\n' : '\n';
}

/** One event on the wire: `event: x\ndata: y\n\n`. Each line of a multi-line `data` becomes its own `data:` line. */
export function formatSseEvent(e: WireEvent, newline: SseNewline = '\n'): string {
  const head = e.event === undefined ? '' : `event: ${e.event}${newline}`;
  const { data } = e;
  if (data.indexOf('\n') === -1 && data.indexOf('\r') === -1) return `${head}data: ${data}${newline}${newline}`;
  return `${head}data: ${data.split(LINE_BREAK).join(`${newline}data: `)}${newline}${newline}`;
}
