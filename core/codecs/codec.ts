import type { GatewayError } from '../errors/gateway-error';
import type { WireEvent } from '../sse/wire-event';
import type { RequestEcho, UnifiedRequest, WireFormat } from '../unified/unified-request';
import type { UnifiedResponse } from '../unified/unified-response';
import type { UnifiedStreamEvent } from '../unified/unified-stream-event';

/** The error body families clients parse (DECISIONS §5). */
export type ErrorFamily = 'openai' | 'messages' | 'gemini';

/** What a conversion that may lose information returns. */
export interface Converted<T> {
  value: T;
  /** Human-readable notes on what was dropped (logged at debug level). */
  warnings: string[];
}

/** Facts a decoder needs that are not in the body (Gemini puts the model and stream mode in the path). */
export interface DecodeContext {
  model?: string;
  stream?: boolean;
  /** The body is to be counted, not answered (`:countTokens`): an empty conversation is valid there. */
  countOnly?: boolean;
}

/** Turns upstream wire events into unified events, one response at a time. */
export interface StreamDecoder {
  push(event: WireEvent): UnifiedStreamEvent[];
  /** Upstream body ended: emit whatever is still owed (e.g. `finish` held back for a trailing usage chunk). */
  end(): UnifiedStreamEvent[];
  /**
   * Whether the answer is whole though `finish` is held back (Gemini: a finishReason has come, usage may follow), so a
   * body that then stalls or breaks ends as the finished answer rather than an error. Decoders that finish at their
   * format's end marker need none.
   */
  whole?(): boolean;
}

/** Turns unified events into client wire events, one response at a time. */
export interface StreamEncoder {
  push(event: UnifiedStreamEvent): WireEvent[];
  /**
   * What to send while the upstream says nothing for a while (a model thinking without streaming its thoughts), for a
   * format whose clients expect a sign of life: Anthropic's `ping` (see KEEP_ALIVE_MS). Absent: nothing is sent.
   */
  keepAlive?(): WireEvent[];
}

export interface ErrorBody {
  status: number;
  body: unknown;
}

/**
 * One wire format, both directions: every client format is also some platform's upstream format.
 * All functions are pure; stream state lives in the objects the factories return.
 */
export interface WireCodec {
  readonly format: WireFormat;
  readonly errorFamily: ErrorFamily;
  /** Client body (already JSON-parsed, not yet validated) → unified. Throws GatewayError GW_INVALID_REQUEST naming the field. */
  decodeRequest(body: unknown, ctx?: DecodeContext): UnifiedRequest;
  /** Unified → this format's request body (for an upstream of this format). Throws GW_INVALID_REQUEST for what cannot be expressed. */
  encodeRequest(request: UnifiedRequest): Converted<Record<string, unknown>>;
  /** Upstream response body of this format → unified. */
  decodeResponse(body: unknown): UnifiedResponse;
  /** Unified → this format's response body, for a client that sent `request` (its settings, not its conversation). */
  encodeResponse(response: UnifiedResponse, request: RequestEcho): unknown;
  createStreamDecoder(): StreamDecoder;
  createStreamEncoder(request: RequestEcho): StreamEncoder;
  /** The error body of this family for a non-streaming answer. */
  encodeError(error: GatewayError): ErrorBody;
  /**
   * The event that reports an error after a stream has started. `sequenceNumber` continues the numbering of a
   * format that numbers its events (Responses) when someone else wrote the events before it (a passthrough).
   */
  encodeStreamError(error: GatewayError, sequenceNumber?: number): WireEvent[];
}
