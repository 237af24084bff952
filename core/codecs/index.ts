import type { WireFormat } from '../unified/unified-request';
import type { WireCodec } from './codec';
import { chatCompletionsCodec } from './chat-completions';
import { geminiCodec } from './gemini';
import { messagesCodec } from './messages';
import { responsesCodec } from './responses';

/** The four client wire formats; each is also some platform's upstream format. */
export const CODECS: Readonly<Record<WireFormat, WireCodec>> = Object.freeze({
  'chat-completions': chatCompletionsCodec,
  responses: responsesCodec,
  messages: messagesCodec,
  gemini: geminiCodec,
});

export { chatCompletionsCodec, geminiCodec, messagesCodec, responsesCodec };
export * from './codec';
