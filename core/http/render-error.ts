import type { ServerResponse } from 'node:http';
import type { ErrorFamily } from '../codecs/codec';
import { encodeGeminiError } from '../codecs/shared/encode-gemini-error';
import { encodeMessagesError } from '../codecs/shared/encode-messages-error';
import { encodeOpenAiError } from '../codecs/shared/encode-openai-error';
import type { GatewayError } from '../errors/gateway-error';

const RENDERERS = { openai: encodeOpenAiError, messages: encodeMessagesError, gemini: encodeGeminiError } as const;

/** Writes a GatewayError in the shape the endpoint's clients parse. */
export function renderError(res: ServerResponse, family: ErrorFamily, error: GatewayError): void {
  const { status, body } = RENDERERS[family](error);
  const text = JSON.stringify(body);
  const headers: Record<string, string | number> = { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) };
  if (error.retryAfterMs !== undefined && (status === 429 || status === 503 || status === 529)) {
    headers['retry-after'] = String(Math.ceil(error.retryAfterMs / 1000));
  }
  res.writeHead(status, headers);
  res.end(text);
}
