import { GatewayError } from '../../errors/gateway-error';
import type { UnifiedRequest } from '../../unified/unified-request';

/**
 * Chat-completions asks another format's upstream cannot answer, and whose absence a client would break on (reading
 * `choice.logprobs.content`, or `message.audio`): a 400 naming the field, as for `n` above 1, not a silent answer
 * without them. A chat upstream gets them back with the other chat fields.
 */
export function refuseChatOnlyFields(request: Pick<UnifiedRequest, 'extensions'>): void {
  const chat = request.extensions?.['chat-completions'];
  if (!chat) return;
  if (chat.logprobs === true) throw unavailable('logprobs', 'token log probabilities are');
  if (typeof chat.top_logprobs === 'number' && chat.top_logprobs > 0) throw unavailable('top_logprobs', 'token log probabilities are');
  if (Array.isArray(chat.modalities)) {
    const audio = chat.modalities.indexOf('audio');
    if (audio >= 0) throw unavailable(`modalities[${audio}]`, 'audio output is');
  }
}

function unavailable(param: string, what: string): GatewayError {
  return new GatewayError('GW_INVALID_REQUEST', `${param}: ${what} not available on this platform`, { param });
}
