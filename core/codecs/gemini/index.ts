import type { WireCodec } from '../codec';
import { encodeGeminiError, encodeGeminiStreamError } from '../shared/encode-gemini-error';
import { createGeminiStreamDecoder } from './create-gemini-stream-decoder';
import { createGeminiStreamEncoder } from './create-gemini-stream-encoder';
import { decodeRequest } from './decode-request';
import { decodeResponse } from './decode-response';
import { encodeRequest } from './encode-request';
import { encodeResponse } from './encode-response';

/** Gemini native `generateContent` / `streamGenerateContent`, both directions. */
export const geminiCodec: WireCodec = Object.freeze({
  format: 'gemini',
  errorFamily: 'gemini',
  decodeRequest,
  encodeRequest,
  decodeResponse,
  encodeResponse,
  createStreamDecoder: createGeminiStreamDecoder,
  createStreamEncoder: createGeminiStreamEncoder,
  encodeError: encodeGeminiError,
  encodeStreamError: encodeGeminiStreamError,
});

export { geminiMethodPath, geminiModelName, geminiModelPath } from './gemini-model-path';
export { unwrapCountTokensRequest } from './unwrap-count-tokens-request';
