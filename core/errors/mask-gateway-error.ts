import { GatewayError } from './gateway-error';
import { maskSecretsIn } from './mask-secret';

/** Masks the secrets a gateway knows in a text bound for a client. */
export type SecretMasker = (text: string) => string;

/**
 * A masker for every secret in the config (licenses, admin keys, platform credentials) plus the well-known key
 * shapes. Plugins mask the secrets they send when they classify a failure; this is the last check before any error
 * text leaves the gateway, for upstreams that echo a credential where no plugin looked (a platform without its own
 * classifier, an error event inside a stream).
 */
export function createSecretMasker(secrets: readonly string[]): SecretMasker {
  return (text) => maskSecretsIn(text, secrets);
}

/** The error itself when its message holds no secret, else a copy whose message is masked. */
export function maskGatewayError(error: GatewayError, mask: SecretMasker): GatewayError {
  const message = mask(error.message);
  if (message === error.message) return error;
  return new GatewayError(error.code, message, {
    status: error.status,
    cause: error.cause,
    param: error.param,
    retryAfterMs: error.retryAfterMs,
    upstreamType: error.upstreamType,
    upstreamCode: error.upstreamCode,
    details: error.details,
  });
}
