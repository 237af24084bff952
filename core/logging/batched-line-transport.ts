import TransportStream from 'winston-transport';

const MESSAGE = Symbol.for('message');

/** How long a line may wait for others: short enough that a log tail looks live. */
const FLUSH_MS = 20;
/** Written at once beyond this: a burst of long lines (debug bodies) is not held in memory. */
const MAX_PENDING_CHARS = 64 * 1024;
/** What a line formatted at write time is counted as towards MAX_PENDING_CHARS (an access line is ~300). */
const LATE_LINE_CHARS = 256;

/** Formats an entry, at the time given (ms since the epoch), into its line (`info[MESSAGE]`); undefined to skip it. */
export type LateLineFormat = (entry: Record<string | symbol, unknown>, at: number) => Record<string | symbol, unknown> | undefined;

/** An entry whose line is made when its batch is written. */
class LateLine {
  constructor(
    readonly entry: Record<string | symbol, unknown>,
    readonly at: number,
    readonly format: LateLineFormat,
  ) {}

  text(): string {
    const formatted = this.format(this.entry, this.at);
    return formatted === undefined ? '' : `${String(formatted[MESSAGE])}\n`;
  }
}

/** Transports with lines not yet written, flushed when the process exits (crash included). */
const live = new Set<BatchedLineTransport>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const transport of live) transport.flush();
  });
}

export interface BatchedLineTransportOptions extends TransportStream.TransportStreamOptions {
  /** Where the lines go; stdout by default. */
  stream?: Pick<NodeJS.WritableStream, 'write'>;
}

/**
 * A winston transport that writes each formatted line (`info[MESSAGE]`) to a stream, the lines of FLUSH_MS together
 * in a single write. stdout to a file or a pipe is written synchronously by Node, one syscall per write, and a
 * syscall costs ~6 µs on the benchmark's VM: under load the gateway logs a line per request, and batching saves that
 * syscall on every request (and the log reader's wake-ups). The lines of one event-loop turn, the batch before this,
 * still paid one write per turn, ~1.3 lines a write at 2–3k req/s. Lines still waiting are written when the process
 * exits, crashes included, and at once when they reach MAX_PENDING_CHARS.
 */
export class BatchedLineTransport extends TransportStream {
  private pending: Array<string | LateLine> = [];
  private pendingChars = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly out: Pick<NodeJS.WritableStream, 'write'>;

  constructor(options: BatchedLineTransportOptions = {}) {
    super(options);
    this.out = options.stream ?? process.stdout;
    installExitHook();
  }

  override log(info: Record<string | symbol, unknown>, callback: () => void): void {
    const line = `${String(info[MESSAGE])}\n`;
    this.hold(line, line.length);
    callback();
  }

  /**
   * Holds an entry whose line `format` makes when the batch is written, with `at` as its time. The access line goes
   * this way: formatted in situ, between a request's other work, it cost ~15 µs of CPU (caches cold, in the profile)
   * where a loop of them costs ~2 µs each. `entry` must be the caller's to give away: it is formatted in place later.
   */
  logLater(entry: Record<string | symbol, unknown>, at: number, format: LateLineFormat): void {
    this.hold(new LateLine(entry, at, format), LATE_LINE_CHARS);
  }

  private hold(line: string | LateLine, chars: number): void {
    this.pending.push(line);
    this.pendingChars += chars;
    if (this.pendingChars >= MAX_PENDING_CHARS) {
      this.flush();
    } else if (this.timer === undefined) {
      live.add(this);
      // Unref'd: waiting lines never keep the process alive; the exit hook writes them.
      this.timer = setTimeout(this.flushNow, FLUSH_MS).unref();
    }
  }

  /** Writes what is waiting, now. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    live.delete(this);
    if (this.pending.length === 0) return;
    const pending = this.pending;
    this.pending = [];
    this.pendingChars = 0;
    let text = '';
    for (const line of pending) text += typeof line === 'string' ? line : line.text();
    if (text !== '') this.out.write(text);
  }

  override close(): void {
    this.flush();
  }

  private readonly flushNow = (): void => this.flush();
}
