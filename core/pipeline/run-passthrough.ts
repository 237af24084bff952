import type { ServerResponse } from 'node:http';
import { CODECS } from '../codecs';
import { GatewayError, toGatewayError } from '../errors/gateway-error';
import type { GatewayHooks } from '../hooks/gateway-hooks';
import type { RequestContext, UpstreamRequest, UpstreamResponse } from '../hooks/plugin-api';
import { createEventBoundaryFollower, type EventBoundaryFollower } from '../sse/follow-event-boundary';
import { createSequenceFollower } from '../sse/follow-sequence-number';
import { createErrorEventFollower } from '../sse/follow-error-event';
import { createGeminiAnswerFollower, createStreamEndFollower, type StreamEndFollower } from '../sse/follow-stream-end';
import { formatSseEvent, sseNewlineOf } from '../sse/format-sse-event';
import { isEventStream } from '../sse/is-event-stream';
import { createJsonArrayParser, type JsonArrayParser } from '../sse/parse-json-array';
import { abortSourceOf } from '../http/request-context';
import { callPlatform } from './call-platform';
import { flushHeadersSoon } from './flush-headers-soon';
import { returnableResponseHeaders } from './forward-headers';
import { createCredentialMasker } from '../errors/mask-echoed-credentials';
import { relayBody } from './relay-body';
import { streamAnswerFraming } from './stream-answer-framing';
import { writeNow } from './write-now';

/** The client's request as it goes upstream; `path` is below the platform segment, without the license query. */
export type PassthroughInput = Pick<UpstreamRequest, 'format' | 'method' | 'path' | 'headers' | 'body' | 'json'>;

/**
 * Native format: the client's bytes go upstream unchanged (credentials swapped by the plugin) and the upstream's
 * bytes come back unchanged, chunk by chunk as they arrive.
 */
export function runPassthrough(hooks: GatewayHooks, input: PassthroughInput, ctx: RequestContext, res: ServerResponse): Promise<void> {
  const request: UpstreamRequest = {
    mode: 'passthrough',
    format: input.format,
    method: input.method,
    path: input.path,
    headers: input.headers,
    body: input.body,
    json: input.json,
    // Every key present: a tap's `{ ...request, key }` then only overrides, which V8 copies fast (see toWireRequest).
    unified: undefined,
    stream: ctx.stream,
  };
  // Not an async function: its frame would hold `input` (the parsed body) until the answer has been relayed.
  return relayAnswer(callPlatform(hooks, request, ctx), input.format, ctx, res, choicesAskedFor(input.json));
}

/** The upstream's status, headers and bytes to the client as they come. */
async function relayAnswer(
  answer: Promise<UpstreamResponse>,
  format: PassthroughInput['format'],
  ctx: RequestContext,
  res: ServerResponse,
  /** Chat's `n`: a chat answer is finished once that many choices have had their finish_reason. */
  choices: number,
): Promise<void> {
  const upstream = await answer;
  // A stream request answered with no stream is a 502 (or the error its JSON body says), as on a translation; a
  // Gemini client's JSON array is a stream, unless it asked for SSE.
  if (ctx.stream && format !== 'other') await streamAnswerFraming(upstream, format, ctx.query.alt === 'sse');
  const headers = returnableResponseHeaders(upstream.headers, upstream.credentials);
  if (ctx.stream) {
    // A stream may have to end with an error event of our own, which a fixed length would not leave room for.
    delete headers['content-length'];
    // As on every stream the gateway sends (SSE_HEADERS): no cache, and no proxy buffering it (nginx).
    headers['cache-control'] ??= 'no-cache';
    headers['x-accel-buffering'] ??= 'no';
  }
  // A stream's head leaves at once, and its headers before its first event; a whole answer's head goes with its first
  // bytes, so that a body failing before any (a reset, a bad encoding) is still answered with a 502.
  const start = (): void => {
    res.writeHead(upstream.status, headers);
  };
  if (ctx.stream) start();
  const flushHeaders = ctx.stream ? flushHeadersSoon(res) : undefined;
  // Only an event stream can be told to have ended early (Gemini's JSON array is followed below; another format's
  // stream request answered otherwise was refused above).
  const sse = isEventStream(upstream.headers['content-type']);
  // A streamed JSON array (Gemini without `alt=sse`) can only end in an error element where an element may start.
  const arrayFraming = ctx.stream && format === 'gemini' && !sse;
  let array: JsonArrayParser | undefined = arrayFraming ? createJsonArrayParser() : undefined;
  // A Responses stream numbers its events: an error event of ours must carry the next number.
  const sequence = ctx.stream && format === 'responses' ? createSequenceFollower() : undefined;
  // An SSE stream's error event of ours must start where an event may start.
  const boundary = ctx.stream && !arrayFraming ? createEventBoundaryFollower() : undefined;
  const opensErrorEvent = boundary ? createErrorEventFollower() : undefined;
  // An upstream may hold a stream open after its last event: the answer is whole then, not cut short.
  const end = boundary && format !== 'other' ? createStreamEndFollower(format, choices) : undefined;
  // Gemini's streamed array likewise, from the elements the array parser gives: whole once every candidate has its finishReason.
  const arrayAnswer = arrayFraming ? createGeminiAnswerFollower() : undefined;
  /**
   * The stream failed mid-way (`error`): it ends with its format's own error event, as the upstream would send it.
   * False when it cannot (not a stream, no format, cut inside an array element or an SSE line): the connection is
   * then dropped, as no ending makes that readable.
   */
  const endWithError = (error: GatewayError): boolean => {
    ctx.log.warn('upstream stream failed', { code: error.code, reason: error.message });
    ctx.failedMidway = error.code.toLowerCase();
    if (!ctx.stream || format === 'other' || (arrayFraming && !array)) return false;
    const events = CODECS[format].encodeStreamError(error, sequence?.next);
    const last = array ? array.closeWith(events.map((event) => event.data).join(',\r\n')) : sseClosing(boundary, events.map((event) => formatSseEvent(event, sseNewlineOf(format))).join(''));
    if (last === undefined) return false;
    if (last) writeNow(res, last);
    return true;
  };
  try {
    await relayBody(upstream.body, res, {
      start: ctx.stream ? undefined : start,
      mask: upstream.credentials ? createCredentialMasker(upstream.credentials) : undefined,
      onChunk(chunk) {
        clearTimeout(flushHeaders);
        sequence?.push(chunk);
        boundary?.push(chunk);
        if (opensErrorEvent && ctx.failedMidway === undefined && opensErrorEvent(chunk)) ctx.failedMidway = 'upstream_error_event';
        if (end) {
          end.push(chunk);
          return end.hasEndLine && end.ended() && boundary?.closingPrefix() === '';
        }
        if (!array) return;
        try {
          arrayAnswer?.follow(array.push(chunk));
        } catch {
          // Not an array after all: the bytes still go through as they are, but no error element can follow them.
          array = undefined;
        }
      },
      onBreak(error) {
        if (abortSourceOf(ctx).aborted) return ctx.stream;
        const delivered = end ? deliveredEnd(end, boundary) : undefined;
        // Broken off (or stalled) after its last event began, or after an error event of its own: that event is
        // finished, nothing else is owed (a second error would follow the first).
        if ((delivered?.ended || ctx.failedMidway === 'upstream_error_event') && endEventOnly(boundary, res, delivered?.ended === true)) return true;
        if (delivered && endsAsFinished(format, delivered.finished, boundary, res)) return true;
        // A whole Gemini array the upstream stalled or broke off before its `]`: closed as it is, no error element.
        const close = arrayAnswer?.whole() ? array?.close() : undefined;
        if (close !== undefined) {
          if (close) writeNow(res, close);
          return true;
        }
        return endWithError(toGatewayError(error));
      },
      onEnd() {
        // A Gemini array the upstream closed without its `]`: closed as it is when whole, else ended with an error element.
        const close = arrayAnswer && array && ctx.failedMidway === undefined ? array.close() : '';
        if (close !== '') {
          // Not whole, or not closable as it stands (cut after a comma): the error element ends it, where one can.
          if (!arrayAnswer?.whole() || close === undefined) return endWithError(new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream stream ended before the response was complete'));
          writeNow(res, close);
          return true;
        }
        // An event stream the upstream closed before its answer was whole (no end event, no finish reason) ends with
        // the format's error event, as a translation of it does: relayed as it came, it read as a complete answer.
        if (!end || !sse || format === 'other') return true;
        const cutShort = (): boolean => endWithError(new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream stream ended before the response was complete'));
        // The upstream's own error event, ended as it stands; cut inside its data, the connection is dropped (its error
        // never arrived, and what came reads as a complete answer); with no data yet, ours completes it.
        if (ctx.failedMidway === 'upstream_error_event') return endEventOnly(boundary, res, false) || cutShort();
        if (ctx.failedMidway !== undefined) return true;
        const delivered = deliveredEnd(end, boundary);
        // Whole: its last event is ended, though its line end or blank line never came (the upstream closed after it).
        if (delivered.ended && endEventOnly(boundary, res, true)) return true;
        // Finished (with `n` above 1, every choice): ended with the end event it owed, or as it stands when it owes none.
        if (delivered.finished && (endsAsFinished(format, true, boundary, res) || !delivered.ended)) return true;
        return cutShort();
      },
    });
  } finally {
    clearTimeout(flushHeaders);
  }
}

/** The end event a whole answer still owes its client, per format (the SDKs wait for Anthropic's message_stop). */
const OWED_END: Partial<Record<string, string>> = {
  'chat-completions': 'data: [DONE]\n\n',
  messages: 'event: message_stop\ndata: {"type":"message_stop"}\n\n',
};

/**
 * An answer whose finish came (chat's finish_reason for one choice, Messages' stop reason) but whose end event did
 * not, stalled, cut or closed: whole, so it ends as one, with the end event it owed. True when it was so ended.
 */
function endsAsFinished(format: string, finished: boolean, boundary: EventBoundaryFollower | undefined, res: ServerResponse): boolean {
  const owed = OWED_END[format];
  if (!owed || !finished) return false;
  const prefix = boundary?.joiningPrefix() ?? boundary?.wholeLineEnd();
  // Cut inside a line after the finish: whole all the same, and the SDKs drop the line the stream's end leaves open.
  if (prefix !== undefined) writeNow(res, prefix + owed);
  return true;
}

/**
 * Whether the stream's end and its answer's finish reached the client, once it broke off or closed. Stopped inside a
 * line cut short, no end did (its event's data was cut), and a finish only from a line before it (the cut one may
 * carry it: `"finish_reason":"s`); an end line whose event has no data yet is no end either.
 */
function deliveredEnd(end: StreamEndFollower, boundary: EventBoundaryFollower | undefined): { ended: boolean; finished: boolean } {
  const open = boundary?.wholeLineEnd() === undefined ? boundary?.openLine() : undefined;
  if (open !== undefined) return { ended: false, finished: end.finishedBefore(open) };
  if (boundary?.opensEmptyEvent()) return { ended: false, finished: end.finishedBefore('') };
  return { ended: end.ended(), finished: end.finished() };
}

/**
 * Ends the event the upstream left open, when it can be: true when the response may then end. Not one with no data
 * yet (the SDKs fail on an empty event). A `whole` answer cut inside its last line ends as it is: the SDKs drop the
 * line the stream's end leaves open, where anything added would make it bad JSON.
 */
function endEventOnly(boundary: EventBoundaryFollower | undefined, res: ServerResponse, whole: boolean): boolean {
  if (boundary?.opensEmptyEvent()) return false;
  const prefix = boundary?.closingPrefix() ?? boundary?.wholeLineEnd();
  if (prefix === undefined) return whole;
  if (prefix) writeNow(res, prefix);
  return true;
}

/** The error events after what it takes to end (or complete) the event the upstream left open; undefined when none can. */
function sseClosing(boundary: EventBoundaryFollower | undefined, events: string): string | undefined {
  const prefix = boundary?.joiningPrefix();
  return prefix === undefined ? undefined : prefix + events;
}

/** How many choices a chat request asks for (`n`, 1 when unset). */
function choicesAskedFor(json: unknown): number {
  const n = typeof json === 'object' && json !== null ? (json as { n?: unknown }).n : undefined;
  return typeof n === 'number' && n > 1 ? n : 1;
}
