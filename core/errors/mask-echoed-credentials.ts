import { shownEnds } from './mask-secret';

/**
 * Shorter credentials are not looked for in a body: a 4–7 character one (`test`, `123456`) occurs in ordinary text,
 * numbers and base64, and masking it there broke answers (`"created":17******78`) to hide nothing a real key is.
 */
const MIN_CREDENTIAL_LENGTH = 8;
const STAR = 0x2a;
/** A held-back start this long is masked at a body's end: no part of a key leaves a body cut inside it. */
const HELD_START_MASKED = 4;

export interface CredentialMasker {
  /** The next bytes of the body, masked: what may be sent now (a possible start of a credential is held back). */
  push(chunk: Buffer): Buffer;
  /**
   * The body has ended or broken off: what was held back, the start of a credential or ordinary bytes that look like
   * one (a body ending in `s`). A start of 4 characters or more is masked whole; a shorter one goes as it is.
   */
  end(): Buffer;
}

/**
 * Masks the credentials a call sent wherever the upstream's bytes echo them whole (an error message quoting the
 * request's `Authorization` header, a debugging proxy's echo), for bodies relayed byte for byte and for the bytes a
 * translation decodes. A credential the upstream sends in pieces (a model streaming it token by token, each piece in
 * its own event) is not seen: only a model that was given the key could do that, and the gateway never gives it.
 * A credential's characters become `*` but for what its masked form shows (maskSecret: the last 4 and a vendor's key
 * prefix, nothing of a short one), so the body keeps its length (a `content-length` stays true) and its structure. One split across two chunks is caught by holding back the end of a chunk that could begin one,
 * which only happens when the chunk ends inside such a start: other bytes go on at once.
 */
export function createCredentialMasker(credentials: readonly string[]): CredentialMasker | undefined {
  const secrets: Credential[] = [];
  for (const credential of credentials) if (credential.length >= MIN_CREDENTIAL_LENGTH) secrets.push(credentialOf(credential));
  if (secrets.length === 0) return undefined;
  let held: Buffer | undefined;
  return {
    push(chunk) {
      let data = held ? Buffer.concat([held, chunk]) : chunk;
      held = undefined;
      data = maskWhole(data, secrets);
      const keep = heldLength(data, secrets);
      if (keep === 0) return data;
      held = Buffer.from(data.subarray(data.length - keep));
      return data.subarray(0, data.length - keep);
    },
    end() {
      const rest = held ?? Buffer.alloc(0);
      held = undefined;
      if (rest.length >= HELD_START_MASKED) rest.fill(STAR);
      return rest;
    },
  };
}

/** A whole body's bytes with the credentials masked (createCredentialMasker in one go); the same buffer when none occurs. */
export function maskCredentialBytes(bytes: Buffer, credentials: readonly string[] | undefined): Buffer {
  const masker = credentials && createCredentialMasker(credentials);
  if (!masker) return bytes;
  const masked = masker.push(bytes);
  const rest = masker.end();
  return rest.length === 0 ? masked : Buffer.concat([masked, rest]);
}

interface Credential {
  bytes: Buffer;
  /** Characters its masked form shows at each end (shownEnds). */
  prefix: number;
  tail: number;
}

/** A credential's bytes and shown ends, made once per credential rather than per request (a few keys, tokens refreshed hourly). */
const byCredential = new Map<string, Credential>();
const MAX_REMEMBERED = 1024;

function credentialOf(credential: string): Credential {
  let known = byCredential.get(credential);
  if (known === undefined) {
    if (byCredential.size >= MAX_REMEMBERED) byCredential.clear();
    known = { bytes: Buffer.from(credential), ...shownEnds(credential) };
    byCredential.set(credential, known);
  }
  return known;
}

/** `data` with each whole occurrence masked; copied only when there is one (the upstream's buffer is not written). */
function maskWhole(data: Buffer, secrets: readonly Credential[]): Buffer {
  let out = data;
  for (const { bytes: secret, prefix, tail } of secrets) {
    let at = out.indexOf(secret);
    while (at >= 0) {
      if (out === data) out = Buffer.from(data);
      out.fill(STAR, at + prefix, at + secret.length - tail);
      at = out.indexOf(secret, at + secret.length);
    }
  }
  return out;
}

/** The longest end of `data` that is the start of a credential (shorter than the credential itself). */
function heldLength(data: Buffer, secrets: readonly Credential[]): number {
  let longest = 0;
  for (const { bytes: secret } of secrets) {
    const first = secret[0];
    const from = Math.max(0, data.length - secret.length + 1);
    for (let at = data.indexOf(first, from); at >= 0; at = data.indexOf(first, at + 1)) {
      const length = data.length - at;
      if (length > longest && data.compare(secret, 0, length, at) === 0) longest = length;
    }
  }
  return longest;
}
