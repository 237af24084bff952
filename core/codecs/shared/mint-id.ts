import { randomBytes } from 'node:crypto';

/**
 * A fresh id for something the upstream sent without one (a chat answer or tool call with a missing or empty `id`).
 * Fresh each time: clients pair tool results with calls, and tell answers apart, by these ids across a whole
 * conversation, so a fixed stand-in (`call_0`) would be the same call in every turn.
 */
export function mintId(prefix: string): string {
  return `${prefix}${randomBytes(12).toString('hex')}`;
}

/** The upstream's id when it is a non-empty string, else a fresh one. */
export function idOrMint(value: unknown, prefix: string): string {
  return typeof value === 'string' && value !== '' ? value : mintId(prefix);
}
