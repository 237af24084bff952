/**
 * Gives each tool call of one answer an id of its own: some OpenAI-compatible services number calls per answer and
 * give two calls one id (`call_0` twice), which a Messages client cannot tell apart (Anthropic's `tool_use` ids are
 * unique; Claude Code pairs each result with its call by id). A repeated id gets `_2`, `_3`… after it.
 */
export function createUniqueCallIds(): (id: string) => string {
  // Made at the first call: most answers have none.
  let used: Set<string> | undefined;
  return (id) => {
    used ??= new Set();
    let unique = id;
    for (let n = 2; used.has(unique); n += 1) unique = `${id}_${n}`;
    used.add(unique);
    return unique;
  };
}
