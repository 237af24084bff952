import { ConfigError } from './load-config';

/**
 * Replaces `"env:NAME"` strings with the environment value, without the whitespace around it (a secret mounted from
 * a file usually ends in a newline). An unset or blank variable removes the value: inside an array the whole element
 * goes (a credential without its secret is no credential), elsewhere the key goes. Returns the resolved copy and one
 * warning per unset variable (names only, never values). A string that starts like a reference but is not one
 * (`env: NAME`, `ENV:NAME`, `env:MY-KEY`) is a ConfigError naming its field: used as written, it would go upstream
 * as the credential itself.
 */
export function resolveEnvRefs(value: unknown, env: NodeJS.ProcessEnv): { value: unknown; warnings: string[] } {
  const warnings: string[] = [];
  const resolved = resolveAt(value, env, '', warnings);
  return { value: resolved === UNSET ? undefined : resolved, warnings };
}

const UNSET = Symbol('unset');
/** Spaces around the whole reference are forgiven (a YAML or JSON slip); inside it, nothing is. */
const ENV_REF = /^\s*env:([A-Za-z_][A-Za-z0-9_]*)\s*$/;
const LOOKS_LIKE_ENV_REF = /^\s*env\s*:/i;

/** What is wrong with a near-miss reference. The value is not quoted: it may be a credential typed after `env:`. */
function whyNotEnvRef(value: string): string {
  const ref = value.trim();
  const problem = !ref.startsWith('env:') || /^env:\s/.test(ref)
    ? 'write "env:" in lower case, with no space around the colon'
    : ref === 'env:'
      ? 'it names no variable'
      : 'a variable name has only letters, digits and _, and does not start with a digit';
  return `starts with env: but is not an environment reference (env:NAME, e.g. env:OPENAI_API_KEY): ${problem}`;
}

function resolveAt(value: unknown, env: NodeJS.ProcessEnv, path: string, warnings: string[]): unknown {
  if (typeof value === 'string') {
    const match = ENV_REF.exec(value);
    if (!match) {
      if (LOOKS_LIKE_ENV_REF.test(value)) throw new ConfigError(`invalid config: ${path || 'value'}: ${whyNotEnvRef(value)}`);
      return value;
    }
    const fromEnv = env[match[1]]?.trim();
    if (fromEnv === undefined || fromEnv === '') {
      warnings.push(`${path || 'value'}: environment variable ${match[1]} is not set`);
      return UNSET;
    }
    return fromEnv;
  }
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    value.forEach((item, index) => {
      const resolved = resolveAt(item, env, `${path}[${index}]`, warnings);
      if (resolved !== UNSET && !hasUnsetInside(item, resolved)) out.push(resolved);
    });
    return out;
  }
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const resolved = resolveAt(item, env, path ? `${path}.${key}` : key, warnings);
      if (resolved !== UNSET) out[key] = resolved;
    }
    return out;
  }
  return value;
}

/** An array element object that lost a key to an unset variable is dropped whole. */
function hasUnsetInside(original: unknown, resolved: unknown): boolean {
  if (!original || typeof original !== 'object' || Array.isArray(original)) return false;
  return Object.keys(original).length !== Object.keys(resolved as object).length;
}
