/** Shorter credentials are not looked for: they would match ordinary text. */
const MIN_CREDENTIAL_LENGTH = 8;
const STAR = 0x2a;
/** How much of a credential's start says nothing secret: its kind (`sk-proj-`, `sk-ant-`, `AIzaSy`). */
const PUBLIC_PREFIX_LENGTH = 8;

export interface CredentialMasker {
  /** The next bytes of the body, masked: what may be sent now (a possible start of a credential is held back). */
  push(chunk: Buffer): Buffer;
  /**
   * The body has ended or broken off: what was held back, the start of a credential or ordinary bytes that look like
   * one (a body ending in `s`). A start long enough to hold more than a key's public prefix is masked past its first
   * 3 characters, as a whole credential is; a shorter one goes as it is.
   */
  end(): Buffer;
}

/**
 * Masks the credentials a call sent wherever the upstream's bytes echo them (an error event quoting the request's
 * `Authorization` header), for bodies relayed byte for byte. A credential becomes `*` but for its first 3 and last
 * 4 characters, so the body keeps its length (a `content-length` stays true) and its structure. One split across
 * two chunks is caught by holding back the end of a chunk that could begin one, which only happens when the
 * chunk ends inside such a start: other bytes go on at once.
 */
export function createCredentialMasker(credentials: readonly string[]): CredentialMasker | undefined {
  const secrets: Buffer[] = [];
  for (const credential of credentials) if (credential.length >= MIN_CREDENTIAL_LENGTH) secrets.push(bytesOf(credential));
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
      if (rest.length > PUBLIC_PREFIX_LENGTH) rest.fill(STAR, 3);
      return rest;
    },
  };
}

/** A credential's bytes, made once per credential rather than per request (a few keys, tokens refreshed hourly). */
const bytesByCredential = new Map<string, Buffer>();
const MAX_REMEMBERED = 1024;

function bytesOf(credential: string): Buffer {
  let bytes = bytesByCredential.get(credential);
  if (bytes === undefined) {
    if (bytesByCredential.size >= MAX_REMEMBERED) bytesByCredential.clear();
    bytes = Buffer.from(credential);
    bytesByCredential.set(credential, bytes);
  }
  return bytes;
}

/** `data` with each whole occurrence masked; copied only when there is one (the upstream's buffer is not written). */
function maskWhole(data: Buffer, secrets: readonly Buffer[]): Buffer {
  let out = data;
  for (const secret of secrets) {
    let at = out.indexOf(secret);
    while (at >= 0) {
      if (out === data) out = Buffer.from(data);
      out.fill(STAR, at + 3, at + secret.length - 4);
      at = out.indexOf(secret, at + secret.length);
    }
  }
  return out;
}

/** The longest end of `data` that is the start of a credential (shorter than the credential itself). */
function heldLength(data: Buffer, secrets: readonly Buffer[]): number {
  let longest = 0;
  for (const secret of secrets) {
    const first = secret[0];
    const from = Math.max(0, data.length - secret.length + 1);
    for (let at = data.indexOf(first, from); at >= 0; at = data.indexOf(first, at + 1)) {
      const length = data.length - at;
      if (length > longest && data.compare(secret, 0, length, at) === 0) longest = length;
    }
  }
  return longest;
}
