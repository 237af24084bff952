import type { Logger } from './create-logger';
import { redactEntry } from './create-redact-format';

const MESSAGE = Symbol.for('message');

/**
 * Formats an entry of primitive fields in place (redacted, timestamped with `at` or now, `info[MESSAGE]` set);
 * undefined for any other. Formatting an entry again gives the same line.
 */
export type JsonLineWriter = (entry: Record<string | symbol, unknown>, at?: number) => Record<string | symbol, unknown> | undefined;

const writers = new WeakMap<Logger, JsonLineWriter>();

/** The ISO timestamp of a millisecond, the last one kept: under load many lines share one. */
let stampedAt = -1;
let stamp = '';
function isoAt(at: number): string {
  if (at !== stampedAt) {
    stampedAt = at;
    stamp = new Date(at).toISOString();
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
  const shapes = createShapeCache();
  return (entry, at) => {
    const fields = entry as Record<string, unknown>;
    if (!isFlatEntry(fields)) return undefined;
    const keys = Object.keys(fields);
    let bigints = false;
    for (const key of keys) if (typeof fields[key] === 'bigint') bigints = true;
    redactEntry(fields, secretList(secrets));
    fields.timestamp = isoAt(at ?? Date.now());
    const shape = shapes.of(keys);
    // An entry made with its keys already in this order (the access line's) is serialised as it is; any other is
    // copied in sorted order first. Either way JSON.stringify runs once: cheaper than a string built value by value
    // (which makes a string per field, measured).
    if (shape.inOrder && !bigints) {
      entry[MESSAGE] = JSON.stringify(fields);
      return entry;
    }
    const sorted: Record<string, unknown> = {};
    for (const key of shape.sorted) {
      const value = fields[key];
      sorted[key] = typeof value === 'bigint' ? value.toString() : value;
    }
    entry[MESSAGE] = JSON.stringify(sorted);
    return entry;
  };
}

/** An entry the JSON line writer writes: every field a primitive (no object, array or error), none named `__proto__`. */
export function isFlatEntry(fields: Record<string, unknown>): boolean {
  for (const key of Object.keys(fields)) {
    const value = fields[key];
    if ((typeof value === 'object' && value !== null) || key === '__proto__') return false;
  }
  return true;
}

/** The configured secrets as an array, copied only when they come as some other iterable. */
function secretList(secrets: (() => Iterable<string>) | undefined): string[] {
  const list = secrets?.();
  if (list === undefined) return [];
  return Array.isArray(list) ? (list as string[]) : Array.from(list);
}

interface Shape {
  /** The entry's keys and `timestamp`, sorted as safe-stable-stringify sorts them. */
  sorted: string[];
  /** The entry's own keys are those, in that order: JSON.stringify of the entry writes them sorted. */
  inOrder: boolean;
}

/** Lines come from a few call sites, each with one shape (the access line on every request): each shape is sorted once. */
const MAX_SHAPES = 32;

function createShapeCache(): { of(keys: string[]): Shape } {
  const shapes: Array<{ keys: string[]; shape: Shape }> = [];
  return {
    of(keys) {
      for (const known of shapes) if (sameKeys(known.keys, keys)) return known.shape;
      const sorted = keys.includes('timestamp') ? [...keys] : [...keys, 'timestamp'];
      sorted.sort();
      const shape = { sorted, inOrder: sameKeys(sorted, keys) };
      if (shapes.length < MAX_SHAPES) shapes.push({ keys, shape });
      return shape;
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
