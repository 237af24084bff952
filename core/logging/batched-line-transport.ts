import TransportStream from 'winston-transport';

const MESSAGE = Symbol.for('message');

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
 * A winston transport that writes each formatted line (`info[MESSAGE]`) to a stream, the lines of one event-loop
 * turn together in a single write. stdout to a file or a pipe is written synchronously by Node, one syscall per
 * write: under load the gateway logs a line per request, and batching them saves that syscall on every request
 * (and the log reader's wake-up). Lines still waiting are written when the process exits, crashes included.
 */
export class BatchedLineTransport extends TransportStream {
  private pending: string[] = [];
  private scheduled = false;
  private readonly out: Pick<NodeJS.WritableStream, 'write'>;

  constructor(options: BatchedLineTransportOptions = {}) {
    super(options);
    this.out = options.stream ?? process.stdout;
    installExitHook();
  }

  override log(info: Record<string | symbol, unknown>, callback: () => void): void {
    this.pending.push(`${String(info[MESSAGE])}\n`);
    if (!this.scheduled) {
      this.scheduled = true;
      live.add(this);
      setImmediate(this.flushNow);
    }
    callback();
  }

  /** Writes what is waiting, now. */
  flush(): void {
    this.scheduled = false;
    live.delete(this);
    if (this.pending.length === 0) return;
    const text = this.pending.length === 1 ? this.pending[0] : this.pending.join('');
    this.pending = [];
    this.out.write(text);
  }

  override close(): void {
    this.flush();
  }

  private readonly flushNow = (): void => this.flush();
}
