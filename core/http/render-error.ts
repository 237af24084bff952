import type { ServerResponse } from 'node:http';
import type { ErrorFamily } from '../codecs/codec';
import { encodeGeminiError } from '../codecs/shared/encode-gemini-error';
import { encodeMessagesError } from '../codecs/shared/encode-messages-error';
import { encodeOpenAiError } from '../codecs/shared/encode-openai-error';
import type { GatewayError } from '../errors/gateway-error';

/** The longest wait the gateway lets an SDK's automatic retry sleep through. */
const MAX_SDK_RETRY_WAIT_MS = 60_000;

const RENDERERS = { openai: encodeOpenAiError, messages: encodeMessagesError, gemini: encodeGeminiError } as const;

/** Writes a GatewayError in the shape the endpoint's clients parse. */
export function renderError(res: ServerResponse, family: ErrorFamily, error: GatewayError): void {
  const { status, headers, text } = encodeErrorResponse(family, error);
  res.writeHead(status, headers);
  res.end(text);
}

/** A GatewayError as the status, headers and body text of the answer the endpoint's clients parse. */
export function encodeErrorResponse(family: ErrorFamily, error: GatewayError): { status: number; headers: Record<string, string | number>; text: string } {
  const { status, body } = RENDERERS[family](error);
  const text = JSON.stringify(body);
  const headers: Record<string, string | number> = { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) };
  if (error.retryAfterMs !== undefined && (status === 429 || status === 503 || status === 529)) {
    headers['retry-after'] = String(Math.ceil(error.retryAfterMs / 1000));
    // The official SDKs retry on their own and wait what retry-after says, an hour included (every key of a platform
    // limit-marked): a client such as Claude Code then hung without a word. Past a minute the wait is the caller's to
    // decide: the SDKs honour `x-should-retry` and raise the error at once, retry-after kept.
    if (error.retryAfterMs > MAX_SDK_RETRY_WAIT_MS) headers['x-should-retry'] = 'false';
  }
  // The official SDKs (Claude Code's with them) retry a 503 several times over, for a state only an operator can end.
  if (error.final) headers['x-should-retry'] = 'false';
  return { status, headers, text };
}
