/**
 * Gives each tool call of one answer an id of its own: some OpenAI-compatible services number calls per answer and
 * give two calls one id (`call_0` twice), which a Messages client cannot tell apart (Anthropic's `tool_use` ids are
 * unique; Claude Code pairs each result with its call by id). A repeated id gets `_2`, `_3`… after it.
 */
export function createUniqueCallIds(): (id: string) => string {
  // Made at the first call: most answers have none.
  let used: Set<string> | undefined;
  /** The next suffix to try per id: counting from `_2` again at each repeat was quadratic (20000 calls of one id: 18 s). */
  let next: Map<string, number> | undefined;
  return (id) => {
    used ??= new Set();
    if (!used.has(id)) {
      used.add(id);
      return id;
    }
    next ??= new Map();
    let n = next.get(id) ?? 2;
    while (used.has(`${id}_${n}`)) n += 1;
    const unique = `${id}_${n}`;
    next.set(id, n + 1);
    used.add(unique);
    return unique;
  };
}
