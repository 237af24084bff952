import type { SecretMasker } from './mask-gateway-error';

/**
 * A JSON value with every string in it masked. An upstream's record of a job (a video, a long-running operation)
 * quotes what the upstream wrote, which can be the key that made the call ("Incorrect API key provided: sk-…") even
 * on an HTTP 200, where no failure classifier looks.
 */
export function maskJsonStrings(json: unknown, mask: SecretMasker): unknown {
  if (typeof json === 'string') return mask(json);
  if (Array.isArray(json)) return json.map((item) => maskJsonStrings(item, mask));
  if (typeof json === 'object' && json !== null) {
    return Object.fromEntries(Object.entries(json).map(([key, value]) => [key, maskJsonStrings(value, mask)]));
  }
  return json;
}
