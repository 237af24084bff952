import type { WireCodec } from '../codec';
import { encodeOpenAiError, encodeOpenAiStreamError } from '../shared/encode-openai-error';
import { createChatCompletionsStreamDecoder } from './create-chat-completions-stream-decoder';
import { createChatCompletionsStreamEncoder } from './create-chat-completions-stream-encoder';
import { decodeChatCompletionsRequest } from './decode-request';
import { decodeChatCompletionsResponse } from './decode-response';
import { encodeChatCompletionsRequest } from './encode-request';
import { encodeChatCompletionsResponse } from './encode-response';

/** OpenAI Chat Completions (`POST /v1/chat/completions`), both directions. */
export const chatCompletionsCodec: WireCodec = Object.freeze({
  format: 'chat-completions',
  errorFamily: 'openai',
  decodeRequest: decodeChatCompletionsRequest,
  encodeRequest: encodeChatCompletionsRequest,
  decodeResponse: decodeChatCompletionsResponse,
  encodeResponse: encodeChatCompletionsResponse,
  createStreamDecoder: createChatCompletionsStreamDecoder,
  createStreamEncoder: createChatCompletionsStreamEncoder,
  encodeError: encodeOpenAiError,
  encodeStreamError: encodeOpenAiStreamError,
});
