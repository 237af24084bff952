import type { UnifiedRequest } from '../../unified/unified-request';
import type { WireCodec } from '../codec';
import { encodeGeminiError, encodeGeminiStreamError } from '../shared/encode-gemini-error';
import { createGeminiStreamDecoder } from './create-gemini-stream-decoder';
import { createGeminiStreamEncoder } from './create-gemini-stream-encoder';
import { decodeRequest } from './decode-request';
import { decodeResponse } from './decode-response';
import { encodeRequest } from './encode-request';
import { encodeResponse } from './encode-response';
import { requestFunctionNames } from './gemini-function-names';

interface GeminiCodec extends WireCodec {
  /**
   * The function names `encodeRequest(request)` changes, for a platform to give its client theirs back in the answer:
   * the decoders see the answer only (see requestFunctionNames).
   */
  requestFunctionNames(request: UnifiedRequest): ((name: string) => string) | undefined;
}

/** Gemini native `generateContent` / `streamGenerateContent`, both directions. */
export const geminiCodec: GeminiCodec = Object.freeze({
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
  requestFunctionNames,
});

export { geminiMethodPath, geminiModelName, geminiModelPath } from './gemini-model-path';
export { unwrapCountTokensRequest } from './unwrap-count-tokens-request';
