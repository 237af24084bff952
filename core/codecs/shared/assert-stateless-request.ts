import { GatewayError } from '../../errors/gateway-error';
import type { UnifiedRequest } from '../../unified/unified-request';

/** Responses fields that point at state kept by the upstream, which a translated upstream does not have. */
const STATEFUL_RESPONSES_FIELDS = ['previous_response_id', 'conversation'] as const;

/**
 * Throws GW_INVALID_REQUEST naming the field when a Responses client relies on upstream-stored state
 * (`previous_response_id`, `conversation`) and the request goes to an upstream of another format: the
 * gateway is stateless, so it cannot rebuild the earlier turns. Encoders of non-responses formats call it.
 */
export function assertStatelessRequest(request: UnifiedRequest): void {
  const ext = request.extensions?.responses;
  if (!ext) return;
  for (const field of STATEFUL_RESPONSES_FIELDS) {
    const value = ext[field];
    if (value !== undefined && value !== null) {
      throw new GatewayError(
        'GW_INVALID_REQUEST',
        `${field}: not supported on this platform; the gateway is stateless, send the whole conversation in input (store: false)`,
        { param: field },
      );
    }
  }
}
