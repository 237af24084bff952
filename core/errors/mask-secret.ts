/**
 * Shortest secret masked wherever it appears in a text. Shorter strings (1–3 characters) occur by chance in
 * almost any message, so masking them would garble every error without hiding anything worth a guess.
 */
export const MIN_MASKED_SECRET_LENGTH = 4;

/** Below this length a masked secret shows none of its characters: its last 4 would be a third or more of it. */
const MIN_SHOWN_TAIL_LENGTH = 12;

/** How many characters between a shown prefix and the last 4 must stay hidden for the prefix to be shown. */
const MIN_HIDDEN_AFTER_PREFIX = 12;

/**
 * Prefixes a vendor puts in front of every key it issues (they tell which kind of key it is, not whose), most specific
 * first, and what a masked key shows of them. DECISIONS §4 names the shape: `sk-ant-api03-…a1b2` → `sk-ant-...a1b2`.
 * Any other leading word (`local-dev-`, `team-alpha-`, an account's name) may be part of the secret and is not shown.
 */
const VENDOR_PREFIXES: ReadonlyArray<readonly [prefix: string, shown: string]> = [
  ['sk-ant-api03-', 'sk-ant-'],
  ['sk-ant-admin01-', 'sk-ant-'],
  ['sk-ant-oat01-', 'sk-ant-'],
  ['sk-ant-ort01-', 'sk-ant-'],
  ['sk-ant-sid01-', 'sk-ant-'],
  ['sk-ant-', 'sk-ant-'],
  ['sk-proj-', 'sk-proj-'],
  ['sk-svcacct-', 'sk-svcacct-'],
  ['sk-admin-', 'sk-admin-'],
  ['sk-', 'sk-'],
  ['xai-', 'xai-'],
];

/**
 * A configured credential as admin views and log lines name it: its last 4 characters only (`...a1b2`, DECISIONS §9),
 * `****` when that would be a third of it or more.
 */
export function maskCredential(secret: string): string {
  return secret.length < MIN_SHOWN_TAIL_LENGTH ? '****' : `...${secret.slice(-4)}`;
}

/**
 * `sk-ant-api03-abc…a1b2` → `sk-ant-...a1b2`, `team-alpha-0123456789` → `...6789`, `hunter2` → `****`: at most the
 * last 4 characters, after a vendor's key prefix when the key is long enough that much stays hidden behind it.
 */
export function maskSecret(secret: string): string {
  const shown = shownEnds(secret);
  if (shown.tail === 0) return '****';
  return `${secret.slice(0, shown.prefix)}...${secret.slice(-shown.tail)}`;
}

/**
 * How many characters of a secret its masked form shows at each end: a vendor's key prefix (at most) and the last 4,
 * none under MIN_SHOWN_TAIL_LENGTH. The one rule for the masked text (maskSecret) and for bytes masked in place.
 */
export function shownEnds(secret: string): { prefix: number; tail: number } {
  if (secret.length < MIN_SHOWN_TAIL_LENGTH) return { prefix: 0, tail: 0 };
  const vendor = VENDOR_PREFIXES.find(([prefix]) => secret.startsWith(prefix));
  const prefix = vendor && secret.length - vendor[0].length - 4 >= MIN_HIDDEN_AFTER_PREFIX ? vendor[1].length : 0;
  return { prefix, tail: 4 };
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

/** Every occurrence of the given secrets (MIN_MASKED_SECRET_LENGTH characters or more) in a text, in their masked form; nothing else. */
export function maskGivenSecrets(text: string, secrets: Iterable<string>): string {
  // No array unless a secret is there: passthrough answers run every response header through here.
  let found: string[] | undefined;
  for (const secret of secrets) {
    if (secret && secret.length >= MIN_MASKED_SECRET_LENGTH && text.includes(secret)) (found ??= []).push(secret);
  }
  if (!found) return text;
  // Longest first: a secret that is part of another must not be masked inside it, leaving the rest of the other shown.
  found.sort((a, b) => b.length - a.length);
  let out = text;
  for (const secret of found) out = out.split(secret).join(maskSecret(secret));
  return out;
}

/** The `sk-…` key shape many OpenAI-compatible services share; plugins pass their own secrets explicitly. */
const KEY_LIKE = /\bsk-[A-Za-z0-9_-]{16,}\b/g;
