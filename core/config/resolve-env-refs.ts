/**
 * Replaces `"env:NAME"` strings with the environment value. An unset variable removes the value: inside an
 * array the whole element goes (a credential without its secret is no credential), elsewhere the key goes.
 * Returns the resolved copy and one warning per unset variable (names only, never values).
 */
export function resolveEnvRefs(value: unknown, env: NodeJS.ProcessEnv): { value: unknown; warnings: string[] } {
  const warnings: string[] = [];
  const resolved = resolveAt(value, env, '', warnings);
  return { value: resolved === UNSET ? undefined : resolved, warnings };
}

const UNSET = Symbol('unset');
const ENV_REF = /^env:([A-Za-z_][A-Za-z0-9_]*)$/;

function resolveAt(value: unknown, env: NodeJS.ProcessEnv, path: string, warnings: string[]): unknown {
  if (typeof value === 'string') {
    const match = ENV_REF.exec(value);
    if (!match) return value;
    const fromEnv = env[match[1]];
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
