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

/**
 * The error itself when none of its texts a client sees holds a secret, else a copy with them masked: the message, and
 * the upstream's `param`, `type` and `code`, which reach clients as they came (an upstream can put the key anywhere).
 */
export function maskGatewayError(error: GatewayError, mask: SecretMasker): GatewayError {
  const message = mask(error.message);
  const param = maskOptional(error.param, mask);
  const upstreamType = maskOptional(error.upstreamType, mask);
  const upstreamCode = maskOptional(error.upstreamCode, mask);
  if (message === error.message && param === error.param && upstreamType === error.upstreamType && upstreamCode === error.upstreamCode) return error;
  return new GatewayError(error.code, message, {
    status: error.status,
    cause: error.cause,
    param,
    retryAfterMs: error.retryAfterMs,
    upstreamType,
    upstreamCode,
    details: error.details,
    final: error.final,
  });
}

function maskOptional(text: string | undefined, mask: SecretMasker): string | undefined {
  return text === undefined ? undefined : mask(text);
}
