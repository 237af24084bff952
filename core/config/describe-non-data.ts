/** Where the first value that is no plain data sits in the config, and what it is (never its text). */
export function describeNonData(value: unknown, path: string): string {
  const place = path === '' ? 'the exported config' : path;
  if (typeof value === 'function') return `${place} is a function (export the object itself)`;
  if (typeof value === 'symbol' || typeof value === 'bigint') return `${place} is a ${typeof value}`;
  if (typeof value !== 'object' || value === null) return `${place} cannot be copied`;
  for (const [key, inner] of Object.entries(value)) {
    const innerPath = Array.isArray(value) ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`;
    if (typeof inner === 'function' || typeof inner === 'symbol' || typeof inner === 'bigint') return describeNonData(inner, innerPath);
    if (typeof inner === 'object' && inner !== null) {
      try {
        structuredClone(inner);
      } catch {
        return describeNonData(inner, innerPath);
      }
    }
  }
  return `${place} holds a value that cannot be copied (a class instance, a promise…)`;
}
