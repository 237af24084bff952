import type { GatewayError } from '../../errors/gateway-error';
import type { WireCodec } from '../codec';
import { encodeOpenAiError } from '../shared/encode-openai-error';
import { createResponsesStreamDecoder } from './create-responses-stream-decoder';
import { createResponsesStreamEncoder } from './create-responses-stream-encoder';
import { decodeResponsesRequest } from './decode-request';
import { decodeResponsesResponse } from './decode-response';
import { encodeResponsesRequest } from './encode-request';
import { encodeResponsesResponse } from './encode-response';
import { encodeResponsesStreamError } from './encode-responses-stream-error';

/** OpenAI Responses (`POST /v1/responses`), both directions. */
export const responsesCodec: WireCodec = Object.freeze({
  format: 'responses',
  errorFamily: 'openai',
  decodeRequest: decodeResponsesRequest,
  encodeRequest: encodeResponsesRequest,
  decodeResponse: decodeResponsesResponse,
  encodeResponse: encodeResponsesResponse,
  createStreamDecoder: createResponsesStreamDecoder,
  createStreamEncoder: createResponsesStreamEncoder,
  encodeError: encodeOpenAiError,
  // Sequence number 0: an error before the stream encoder sent anything. Once it has, the pipeline pushes
  // `{type: 'error'}` through the encoder, which numbers the event itself.
  encodeStreamError: (error: GatewayError, sequenceNumber?: number) => encodeResponsesStreamError(error, sequenceNumber),
});
