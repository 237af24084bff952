/**
 * The most output tokens a Claude model takes (`max_tokens`), where the gateway knows it: a `max_tokens` the gateway
 * raises to make room for thinking must stay under it, or the API answers 400 ("max_tokens: 65536 > 64000, which is
 * the maximum allowed number of output tokens for claude-sonnet-4-5"). Undefined for a name it does not know.
 * Opus 4 and 4.1 take 32000; the other 4.x models and 3.7 Sonnet 64000 (a later model taking more is only asked
 * for less); 3.5 models 8192; 3 models 4096.
 */
export function claudeOutputLimit(model: string): number | undefined {
  const name = model.toLowerCase();
  if (/claude-opus-4(?:-1)?(?:-\d{8})?$/.test(name) || /claude-opus-4-0/.test(name)) return 32_000;
  if (/claude-(?:opus|sonnet|haiku)-4/.test(name) || /claude-3-7-sonnet/.test(name)) return 64_000;
  if (/claude-3-5-/.test(name)) return 8_192;
  if (/claude-3-(?:opus|sonnet|haiku)/.test(name)) return 4_096;
  return undefined;
}
