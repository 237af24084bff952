import { createHash, randomBytes } from 'node:crypto';

/** A PKCE pair (RFC 7636, S256) plus the OAuth `state` of one authorisation. */
export interface Pkce {
  verifier: string;
  challenge: string;
  state: string;
}

/** 32 random bytes, base64url, for the verifier and the state; the challenge is the verifier's SHA-256, base64url. */
export function createPkce(random: (size: number) => Buffer = randomBytes): Pkce {
  const verifier = random(32).toString('base64url');
  return {
    verifier,
    challenge: createHash('sha256').update(verifier).digest('base64url'),
    state: random(32).toString('base64url'),
  };
}
