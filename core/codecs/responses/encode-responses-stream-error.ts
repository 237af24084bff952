import type { GatewayError } from '../../errors/gateway-error';
import type { WireEvent } from '../../sse/wire-event';
import { encodeOpenAiError, openAiCodeOf } from '../shared/encode-openai-error';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A late error in a Responses stream: `event: error` with `{type, code, message, param, sequence_number}`
 * (OAS `ResponseErrorEvent`). `code` is the upstream's code when there was one (see openAiCodeOf), else the OpenAI envelope's
 * type (the upstream's own only when it is OpenAI vocabulary, see encodeOpenAiError). The stream encoder passes
 * its next sequence number; the default 0 is for an error before any event was sent.
 */
export function encodeResponsesStreamError(error: GatewayError, sequenceNumber = 0): WireEvent[] {
  const payload = { type: 'error', sequence_number: sequenceNumber, ...responsesErrorOf(error), param: error.param ?? null };
  return [{ event: 'error', data: JSON.stringify(payload) }];
}

/** A late error's `code` and `message`, as the `error` event and a failed response's `error` carry them. */
export function responsesErrorOf(error: GatewayError): { code: string; message: string } {
  const { body } = encodeOpenAiError(error);
  const envelope = isRecord(body) && isRecord(body.error) ? body.error : {};
  const fallback = typeof envelope.type === 'string' ? envelope.type : 'server_error';
  return { code: openAiCodeOf(error) ?? fallback, message: error.message };
}
