const THINKING_SUFFIX = '-thinking';
const MAX_SUFFIX = '-max';

/** What a client's model name asks of the pool. */
export interface PoolModel {
  /** The name sent upstream, suffixes removed. */
  upstreamModel: string;
  /** `-thinking`: merge the `thinking` fields into the upstream body. */
  thinking: boolean;
  /** Why only a premium token may serve it, or undefined when any token may. */
  premium?: 'max-suffix' | 'premium-model';
}

const NO_NAMES: ReadonlySet<string> = new Set();

/**
 * `gpt-x-thinking`, `gpt-x-max`, `gpt-x-max-thinking` (either order) → `gpt-x` plus what the suffixes ask for.
 * A name the upstream lists (`upstreamModels`: `kimi-k2-thinking`, `qwen-max`) or one in `premiumModels` is never cut
 * further: it is the upstream's own model, and goes upstream unchanged.
 */
export function parsePoolModel(model: string, premiumModels: ReadonlySet<string>, upstreamModels: ReadonlySet<string> = NO_NAMES): PoolModel {
  let name = model;
  let thinking = false;
  let max = false;
  for (;;) {
    if (premiumModels.has(name) || upstreamModels.has(name)) break;
    if (!thinking && name.length > THINKING_SUFFIX.length && name.endsWith(THINKING_SUFFIX)) {
      name = name.slice(0, -THINKING_SUFFIX.length);
      thinking = true;
    } else if (!max && name.length > MAX_SUFFIX.length && name.endsWith(MAX_SUFFIX)) {
      name = name.slice(0, -MAX_SUFFIX.length);
      max = true;
    } else {
      break;
    }
  }
  const premium = max ? 'max-suffix' : premiumModels.has(name) ? 'premium-model' : undefined;
  return { upstreamModel: name, thinking, ...(premium ? { premium } : {}) };
}
