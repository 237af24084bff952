import { GatewayError } from '../errors/gateway-error';
import type { ReadOptions } from './store';

/**
 * What both drivers share, so that they behave the same: values are stored as JSON text (a caller
 * never gets back the object it stored, only an equal copy), TTLs become absolute expiry times, and
 * keys sort as SQLite's BINARY collation sorts them.
 */

/** How often a driver sweeps out expired entries that nobody has read since they expired. */
export const PURGE_INTERVAL_MS = 60_000;

export function encodeStoreValue(value: unknown, where: string): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (cause) {
    throw new GatewayError('GW_INTERNAL', `${where}: value is not JSON-serialisable: ${describe(cause)}`, { cause });
  }
  // JSON.stringify answers undefined for undefined, functions and symbols: nothing a get could return.
  if (text === undefined) throw new GatewayError('GW_INTERNAL', `${where}: value is not JSON-serialisable: ${typeof value}`);
  return text;
}

/** The store hands back what its caller stored there; the type parameter is the caller's claim. */
export function decodeStoreValue<T>(text: string, where: string): T {
  try {
    return JSON.parse(text) as T;
  } catch (cause) {
    throw new GatewayError('GW_INTERNAL', `${where}: corrupt value (not JSON): ${describe(cause)}`, { cause });
  }
}

/** One entry's value, decoded; one that cannot be decoded goes to `onUnreadable` when given and reads as absent (see ReadOptions). */
export function decodeRead<T>(key: string, json: string, where: string, { onUnreadable }: ReadOptions = {}): T | undefined {
  try {
    return decodeStoreValue<T>(json, where);
  } catch (error) {
    if (!onUnreadable) throw error;
    onUnreadable(key, error as GatewayError);
    return undefined;
  }
}

/** A listed namespace's values, decoded; what cannot be decoded goes to `onUnreadable` when given (see ReadOptions). */
export function decodeListed<T>(rows: Array<{ key: string; json: string }>, where: (key: string) => string, options: ReadOptions = {}): Array<{ key: string; value: T }> {
  const listed: Array<{ key: string; value: T }> = [];
  for (const { key, json } of rows) {
    const value = decodeRead<T>(key, json, where(key), options);
    // JSON text never decodes to undefined: undefined here is an unreadable row, already reported.
    if (value !== undefined) listed.push({ key, value });
  }
  return listed;
}

/** Absolute expiry in epoch milliseconds, or null for an entry that never expires. */
export function toExpiresAt(now: number, ttlMs: number | undefined, where: string): number | null {
  if (ttlMs === undefined) return null;
  if (!Number.isFinite(ttlMs)) throw new GatewayError('GW_INTERNAL', `${where}: ttlMs must be a finite number, got ${ttlMs}`);
  return Math.ceil(now + ttlMs);
}

export function isLive(expiresAt: number | null, now: number): boolean {
  return expiresAt === null || expiresAt > now;
}

/**
 * Code-point order, the order of SQLite's BINARY collation on UTF-8 text. Plain `<` compares UTF-16
 * units, which puts U+10000 and above (surrogate pairs) before U+E000..U+FFFF.
 */
export function compareKeys(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return toCodePointRank(x) - toCodePointRank(y);
  }
  return a.length - b.length;
}

function toCodePointRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}

export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
