import type { Logger } from './create-logger';
import { redactEntry } from './create-redact-format';

const MESSAGE = Symbol.for('message');

/** Formats an entry of primitive fields in place (redacted, timestamped, `info[MESSAGE]` set); undefined for any other. */
export type JsonLineWriter = (entry: Record<string | symbol, unknown>) => Record<string | symbol, unknown> | undefined;

const writers = new WeakMap<Logger, JsonLineWriter>();

/** The ISO timestamp of the current millisecond: under load many lines share one. */
let stampedAt = -1;
let stamp = '';
function isoNow(): string {
  const now = Date.now();
  if (now !== stampedAt) {
    stampedAt = now;
    stamp = new Date(now).toISOString();
  }
  return stamp;
}

/**
 * The line createLogger's JSON format chain (redaction, ISO timestamp, logform's json) writes for an entry whose
 * fields are all primitives, byte for byte — keys sorted as safe-stable-stringify sorts them, bigints as strings —
 * for a fraction of its CPU: the chain builds a new stringifier per entry and walks every value generically.
 * Entries with objects, arrays or errors are left to the chain (undefined).
 */
export function createJsonLineWriter(secrets?: () => Iterable<string>): JsonLineWriter {
  const sortedKeys = createSortedKeysCache();
  return (entry) => {
    const fields = entry as Record<string, unknown>;
    const keys = Object.keys(fields);
    for (const key of keys) {
      const value = fields[key];
      if ((typeof value === 'object' && value !== null) || key === '__proto__') return undefined;
    }
    redactEntry(fields, secrets ? Array.from(secrets()) : []);
    fields.timestamp = isoNow();
    // A copy with the keys in sorted order, serialised once: cheaper than a string built value by value (which
    // makes a string per field, measured).
    const sorted: Record<string, unknown> = {};
    for (const key of sortedKeys.of(keys)) {
      const value = fields[key];
      sorted[key] = typeof value === 'bigint' ? value.toString() : value;
    }
    entry[MESSAGE] = JSON.stringify(sorted);
    return entry;
  };
}

/** Lines come from a few call sites, each with one shape (the access line on every request): each shape is sorted once. */
const MAX_SHAPES = 32;

function createSortedKeysCache(): { of(keys: string[]): string[] } {
  const shapes: Array<{ keys: string[]; sorted: string[] }> = [];
  return {
    /** `keys` and `timestamp`, sorted. */
    of(keys) {
      for (const shape of shapes) if (sameKeys(shape.keys, keys)) return shape.sorted;
      const sorted = keys.includes('timestamp') ? [...keys] : [...keys, 'timestamp'];
      sorted.sort();
      if (shapes.length < MAX_SHAPES) shapes.push({ keys, sorted });
      return sorted;
    },
  };
}

function sameKeys(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

/** Called by createLogger for a logger whose format chain is the JSON one. */
export function registerJsonLineWriter(log: Logger, writer: JsonLineWriter): void {
  writers.set(log, writer);
}

/** The logger's JSON line writer, when its format chain is createLogger's JSON one. */
export function jsonLineWriterOf(log: Logger): JsonLineWriter | undefined {
  return writers.get(log);
}
