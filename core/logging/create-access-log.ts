import { BatchedLineTransport } from './batched-line-transport';
import type { Logger } from './create-logger';
import { isFlatEntry, jsonLineWriterOf } from './json-line-writer';

const LEVEL = Symbol.for('level');
const ACCESS_LEVEL = 'info';

type Entry = Parameters<Logger['format']['transform']>[0];

function noop(): void {}

/**
 * The per-request access line (`info`, message `request`): the same entry `log.info('request', fields)` writes,
 * handed to the logger's transports directly. winston's stream plumbing between a logger and its transports costs
 * ~15 µs of CPU per entry, and logform's chain (redaction walk, a fresh safe-stable-stringify per entry) another
 * ~10 µs: nothing for start-up lines, a tenth of the gateway's per-request budget for a line on every request.
 * On a JSON logger from createLogger the line is written by its JSON line writer (same bytes as the chain, tested);
 * any other logger goes through its own format chain. Level, `silent` and per-transport levels and formats are
 * honoured as winston does. `fields` must be an object made for this call: it becomes the entry.
 */
export function createAccessLog(log: Logger): (fields: Record<string, unknown>) => void {
  const jsonLine = jsonLineWriterOf(log);
  return (fields) => {
    if (log.silent || !log.isLevelEnabled(ACCESS_LEVEL)) return;
    // The caller's fresh object becomes the entry. A spread copy (`{ ...fields, level }`) would cost more than the
    // copy: V8 then builds a new hidden class per call, in old space, and the heap grows until a full GC (measured).
    const entry: Record<string | symbol, unknown> = fields;
    entry.level = ACCESS_LEVEL;
    entry.message = 'request';
    entry[LEVEL] = ACCESS_LEVEL;
    const at = Date.now();
    /** Formatted now for the transports that cannot wait; false once the chain has dropped the entry. */
    let formatted: Entry | boolean | undefined;
    for (const transport of log.transports) {
      if (transport.silent || !transport.log) continue;
      const level = transport.level ?? log.level;
      if (log.levels[level] < log.levels[ACCESS_LEVEL]) continue;
      // Batched stdout (createLogger's) formats the line when it writes its batch, with this time as the timestamp.
      // Only an entry the writer takes: any other goes through the chain now (a deferred one would be lost at the flush).
      if (jsonLine && formatted === undefined && !transport.format && transport instanceof BatchedLineTransport && isFlatEntry(entry as Record<string, unknown>)) {
        transport.logLater(entry, at, jsonLine);
        continue;
      }
      formatted ??= (jsonLine?.(entry, at) as Entry | undefined) ?? log.format.transform(entry as Entry, log.format.options);
      if (typeof formatted !== 'object') return;
      const out = transport.format ? transport.format.transform({ ...formatted }, transport.format.options) : formatted;
      if (typeof out === 'object') transport.log(out, noop);
    }
  };
}
