import type { AuthInput } from '../hooks/plugin-api';

/**
 * The credential a client presented, from any of the accepted places (DECISIONS §4): `Authorization: Bearer L`,
 * `Authorization: L`, `x-api-key`, `x-goog-api-key`, and `?key=` on `/v1beta` paths only.
 */
export function extractCredential(input: AuthInput): string | undefined {
  const { headers } = input;
  const authorization = headers.authorization;
  if (authorization) {
    const value = authorization.trim();
    const bearer = /^bearer\s+(.+)$/i.exec(value);
    return bearer ? bearer[1].trim() : value;
  }
  const apiKey = single(headers['x-api-key']) ?? single(headers['x-goog-api-key']);
  if (apiKey) return apiKey.trim();
  // The version segment right after the platform: `/{platform}/v1beta/…`, not a task id that happens to be "v1beta".
  if (input.query.key && /^\/[^/]+\/v1beta\//.test(input.path)) return input.query.key;
  return undefined;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
