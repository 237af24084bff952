/**
 * Claude models that think only adaptively: Opus 4.7 and later, Mythos, and any later generation. On them
 * `thinking: {type: "enabled", budget_tokens}` is a 400 ("thinking.type.enabled is not supported for this model"),
 * thinking text comes back empty unless `display: "summarized"` asks for it, and temperature, top_p and top_k are
 * gone (a 400 when sent). Anthropic's Opus 4.7 migration notes; the minor version is one or two digits.
 */
export function isAdaptiveOnlyClaude(model: string): boolean {
  const name = model.toLowerCase();
  if (/claude-mythos/.test(name)) return true;
  const version = /claude-(opus|sonnet|haiku)-(\d+)(?:-(\d{1,2})(?!\d))?/.exec(name);
  if (!version) return false;
  const [major, minor] = [Number(version[2]), Number(version[3] ?? 0)];
  if (major > 4) return true;
  return version[1] === 'opus' && major === 4 && minor >= 7;
}
