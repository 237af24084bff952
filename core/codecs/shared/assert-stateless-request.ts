import { GatewayError } from '../../errors/gateway-error';
import type { UnifiedRequest, WireFormat } from '../../unified/unified-request';
import { isPlainObject } from './is-plain-object';

/** Responses fields that point at state kept by the upstream, which a translated upstream does not have. */
const STATEFUL_RESPONSES_FIELDS = ['previous_response_id', 'conversation'] as const;

/**
 * Throws when a client relies on state held by an upstream of its own format and the request goes to an upstream of
 * another format: the gateway is stateless, so it cannot rebuild the earlier turns, and answering without them would
 * answer another question.
 * - Responses `previous_response_id` / `conversation`: GW_INVALID_REQUEST naming the field.
 * - Messages `thread: {type: "continue"}` (the Anthropic SDK's message threads): the error Anthropic gives for a thread
 *   it does not hold, a 404 with `details.error_code: "thread_not_found"` (the SDK's ThreadNotFoundError), on which
 *   the SDK replays the whole conversation under a new thread by itself. A `create` asks only that state be kept; the answer is the same without it.
 */
export function assertStatelessRequest(request: UnifiedRequest, upstreamFormat: WireFormat): void {
  const responses = request.extensions?.responses;
  if (responses && upstreamFormat !== 'responses') {
    for (const field of STATEFUL_RESPONSES_FIELDS) {
      const value = responses[field];
      if (value !== undefined && value !== null) {
        throw new GatewayError(
          'GW_INVALID_REQUEST',
          `${field}: not supported on this platform; the gateway is stateless, send the whole conversation in input (store: false)`,
          { param: field },
        );
      }
    }
  }
  const thread = request.extensions?.messages?.thread;
  if (isPlainObject(thread) && thread.type === 'continue' && upstreamFormat !== 'messages') {
    throw new GatewayError(
      'GW_INVALID_REQUEST',
      'thread: this platform does not hold message threads; send the whole conversation (the Anthropic SDK replays it by itself)',
      { status: 404, param: 'thread', details: { error_code: 'thread_not_found' } },
    );
  }
}
