import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Checks a presented key against a fixed set in constant time: every candidate is hashed to the same length
 * and compared against every known key, so neither length nor position leaks through timing.
 */
export function createKeyChecker(keys: readonly string[]): (presented: string | undefined) => boolean {
  // An empty key would let in any credential that reads as empty; the config refuses one, this is the last guard.
  const digests = keys.filter((key) => key !== '').map(digest);
  return (presented) => {
    if (presented === undefined || presented === '' || digests.length === 0) return false;
    const candidate = digest(presented);
    let found = false;
    for (const known of digests) found = timingSafeEqual(candidate, known) || found;
    return found;
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
