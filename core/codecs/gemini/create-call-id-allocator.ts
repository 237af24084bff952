/**
 * Gemini function calls usually come without an id. The gateway names them `<prefix><n>`, counting
 * from 0 in order of appearance and skipping names already taken by ids that were sent. The same
 * input always gives the same ids, so a replayed conversation keeps its ids.
 */
export function createCallIdAllocator(taken: Iterable<string> = [], prefix = 'call_'): () => string {
  const used = new Set(taken);
  let next = 0;
  return () => {
    while (used.has(`${prefix}${next}`)) next += 1;
    const id = `${prefix}${next}`;
    used.add(id);
    next += 1;
    return id;
  };
}
