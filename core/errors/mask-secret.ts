/** `sk-ant-api03-abc…a1b2` → `sk-ant-...a1b2`: keeps a recognisable prefix and the last 4 characters. */
export function maskSecret(secret: string): string {
  if (secret.length <= 8) return '****';
  const prefixMatch = /^[A-Za-z]{2,6}-(?:[A-Za-z]{2,6}-)?/.exec(secret);
  const prefix = prefixMatch ? prefixMatch[0] : '';
  return `${prefix}...${secret.slice(-4)}`;
}

/**
 * Replaces every occurrence of the given secrets in a text with their masked form, and masks
 * strings that look like well-known key formats. Used on upstream error messages before they reach
 * a client or a log.
 */
export function maskSecretsIn(text: string, secrets: Iterable<string> = []): string {
  const out = maskGivenSecrets(text, secrets);
  // Most texts hold no key: the substring test is far cheaper than running the pattern over them.
  return out.includes('sk-') ? out.replace(KEY_LIKE, (match) => maskSecret(match)) : out;
}

/** Every occurrence of the given secrets (8 characters or more) in a text, in their masked form; nothing else. */
export function maskGivenSecrets(text: string, secrets: Iterable<string>): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 8 && out.includes(secret)) out = out.split(secret).join(maskSecret(secret));
  }
  return out;
}

/** The `sk-…` key shape many OpenAI-compatible services share; plugins pass their own secrets explicitly. */
const KEY_LIKE = /\bsk-[A-Za-z0-9_-]{16,}\b/g;
