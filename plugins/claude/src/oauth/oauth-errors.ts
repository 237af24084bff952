import { GatewayError, isGatewayError, maskSecretsIn } from '@gateway/core';

/** Marks an OAuth failure that is the credential's fault (bad session key, revoked grant), not the network's. */
const REJECTED = 'credential_rejected';

/** The session key or refresh token was refused: the credential cannot serve until an operator replaces it. */
export function credentialRejected(message: string, secrets: string[]): GatewayError {
  return new GatewayError('GW_UPSTREAM_ERROR', maskSecretsIn(message, secrets), { status: 401, upstreamCode: REJECTED });
}

/** claude.ai or the token endpoint misbehaved (5xx, unexpected body): worth trying again later. */
export function oauthUnavailable(message: string, secrets: string[]): GatewayError {
  return new GatewayError('GW_UPSTREAM_BAD_RESPONSE', maskSecretsIn(message, secrets));
}

export function isCredentialRejection(error: unknown): error is GatewayError {
  return isGatewayError(error) && error.upstreamCode === REJECTED;
}
