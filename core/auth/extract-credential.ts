import type { AuthInput } from '../hooks/plugin-api';

/**
 * The credential a client presented, from any of the accepted places (DECISIONS §4): `Authorization: Bearer L`,
 * `Authorization: L`, `x-api-key`, `x-goog-api-key`, and `?key=` on `/v1beta` paths only.
 */
export function extractCredential(input: AuthInput): string | undefined {
  const { headers } = input;
  const authorization = headers.authorization;
  if (authorization) {
    const value = trimHttpSpace(authorization);
    const bearer = /^bearer[ \t]+(.+)$/i.exec(value);
    return nonEmpty(bearer ? trimHttpSpace(bearer[1]) : value);
  }
  const apiKey = single(headers['x-api-key']) ?? single(headers['x-goog-api-key']);
  if (apiKey) return nonEmpty(trimHttpSpace(apiKey));
  // The version segment right after the platform: `/{platform}/v1beta/…`, not a task id that happens to be "v1beta".
  if (input.query.key && /^\/[^/]+\/v1beta\//.test(input.path)) return input.query.key;
  return undefined;
}

/**
 * Only HTTP's own whitespace (space, tab: RFC 9110 OWS). `String.trim` also strips Unicode spaces: a header of one
 * 0xA0 byte (read as U+00A0) became the empty string, which an empty configured license then matched. A loop from
 * each end: the regex `[ \t]+$` rescans a run of spaces from each of its positions (16 KB of them, before any
 * license check, held the event loop for 0.4 s).
 */
function trimHttpSpace(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && isHttpSpace(value.charCodeAt(start))) start++;
  while (end > start && isHttpSpace(value.charCodeAt(end - 1))) end--;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}

function isHttpSpace(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

/** A blank credential is none: no configured key can be empty, and none may match one. */
function nonEmpty(value: string): string | undefined {
  return value === '' ? undefined : value;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
