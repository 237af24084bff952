import type { WireCodec } from '../codec';
import { encodeMessagesError, encodeMessagesStreamError } from '../shared/encode-messages-error';
import { createMessagesStreamDecoder } from './create-messages-stream-decoder';
import { createMessagesStreamEncoder } from './create-messages-stream-encoder';
import { decodeMessagesRequest } from './decode-request';
import { decodeMessagesResponse } from './decode-response';
import { encodeMessagesRequest } from './encode-request';
import { encodeMessagesResponse } from './encode-response';

/** The Anthropic Messages wire format (`/v1/messages`), both directions. */
export const messagesCodec: WireCodec = Object.freeze({
  format: 'messages',
  errorFamily: 'messages',
  decodeRequest: decodeMessagesRequest,
  encodeRequest: encodeMessagesRequest,
  decodeResponse: decodeMessagesResponse,
  encodeResponse: encodeMessagesResponse,
  createStreamDecoder: createMessagesStreamDecoder,
  createStreamEncoder: createMessagesStreamEncoder,
  encodeError: encodeMessagesError,
  encodeStreamError: encodeMessagesStreamError,
});

export { estimateInputTokens } from './estimate-input-tokens';
