import { GatewayError } from '../../errors/gateway-error';
import type { UnifiedRequest, WireFormat } from '../../unified/unified-request';

/**
 * Asks of one format that another format's upstream cannot answer, and whose absence the client would not notice
 * or would break on: a 400 naming the field, as for `n` above 1, rather than an answer without them.
 * - chat `logprobs` / `top_logprobs` (a client reads `choice.logprobs.content`) and audio output (`message.audio`);
 * - Gemini `cachedContent`: the cached part of the prompt lives at Google; without it the answer is to another prompt.
 * An upstream of the client's own format gets them back with the format's other fields.
 */
export function refuseUntranslatableFields(request: Pick<UnifiedRequest, 'extensions'>, target: WireFormat): void {
  const chat = target === 'chat-completions' ? undefined : request.extensions?.['chat-completions'];
  if (chat) {
    if (chat.logprobs === true) throw unavailable('logprobs', 'token log probabilities are');
    if (typeof chat.top_logprobs === 'number' && chat.top_logprobs > 0) throw unavailable('top_logprobs', 'token log probabilities are');
    if (Array.isArray(chat.modalities)) {
      const audio = chat.modalities.indexOf('audio');
      if (audio >= 0) throw unavailable(`modalities[${audio}]`, 'audio output is');
    }
  }
  const gemini = target === 'gemini' ? undefined : request.extensions?.gemini;
  if (typeof gemini?.cachedContent === 'string') throw unavailable('cachedContent', 'content cached at Google is');
}

function unavailable(param: string, what: string): GatewayError {
  return new GatewayError('GW_INVALID_REQUEST', `${param}: ${what} not available on this platform`, { param });
}
