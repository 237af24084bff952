/** Shorter strings are left: they cannot spell a word a pattern looks for, and blanking them would hide the upstream's own. */
const MIN_ECHO_CHARS = 3;

/**
 * An upstream error body, lower-cased, with every string of the request it answers blanked out: the values and keys
 * of its JSON body. Upstream messages quote what the client sent ("The model `my-suspended-model` does not exist",
 * "Invalid key in 'logit_bias': banned"), and a client must never take tokens out of service by naming a model or a
 * parameter after a pattern. Lower-cased on both sides so that an echo the upstream normalised is found as well; the
 * patterns are case-insensitive. A body that is not JSON leaves the text as it is (lower-cased).
 */
export function blankRequestEchoes(text: string, body: Buffer | undefined): string {
  let blanked = text.toLowerCase();
  if (!body || body.length === 0) return blanked;
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    return blanked;
  }
  const echoes = new Set<string>();
  collectStrings(value, echoes, blanked.length);
  // Longest first: a prompt that contains a short value goes as a whole.
  for (const echo of [...echoes].sort((a, b) => b.length - a.length)) {
    if (blanked.includes(echo)) blanked = blanked.split(echo).join(' ');
  }
  return blanked;
}

/** Lower-cased strings and keys from MIN_ECHO_CHARS up to `maxChars` long (a longer one cannot occur in the text). */
function collectStrings(value: unknown, into: Set<string>, maxChars: number): void {
  const add = (text: string): void => {
    if (text.length >= MIN_ECHO_CHARS && text.length <= maxChars) into.add(text.toLowerCase());
  };
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') add(item);
    else if (Array.isArray(item)) pending.push(...item);
    else if (item !== null && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        add(key);
        pending.push(child);
      }
    }
  }
}
