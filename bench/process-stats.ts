/**
 * Child side of the benchmark's measurements: a process that calls `serveStats()` answers its parent's IPC
 * questions about its own CPU time (process.cpuUsage, µs) and resident memory, so the gateway, the floor proxy
 * and the simulator are each measured apart from the load generator.
 */

/** Parent → child. */
export type StatsCommand = { cmd: 'reset'; id: number } | { cmd: 'read'; id: number } | { cmd: 'gc'; id: number };

/** Child → parent, one per command. */
export interface StatsReply {
  id: number;
  /** CPU time since the last reset, µs. */
  userUs: number;
  systemUs: number;
  /** Highest RSS sampled since the last reset, bytes. */
  peakRss: number;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  /** Memory of Buffers and other objects outside the V8 heap. */
  external: number;
}

/** Often enough to catch a peak under load, cheap enough not to show in the CPU figures. */
const SAMPLE_MS = 25;

export function serveStats(): void {
  if (!process.send) throw new Error('serveStats() needs an IPC channel (spawn with stdio "ipc")');
  let base = process.cpuUsage();
  let peakRss = process.memoryUsage.rss();
  const timer = setInterval(() => {
    const rss = process.memoryUsage.rss();
    if (rss > peakRss) peakRss = rss;
  }, SAMPLE_MS);
  timer.unref();

  process.on('message', (message: StatsCommand) => {
    if (message.cmd === 'gc') {
      const gc = (globalThis as { gc?: () => void }).gc;
      gc?.();
      gc?.();
    }
    const rss = process.memoryUsage.rss();
    if (message.cmd === 'reset') {
      base = process.cpuUsage();
      peakRss = rss;
    } else if (rss > peakRss) {
      peakRss = rss;
    }
    const cpu = process.cpuUsage(base);
    const { heapUsed, heapTotal, external } = process.memoryUsage();
    const reply: StatsReply = { id: message.id, userUs: cpu.user, systemUs: cpu.system, peakRss, rss, heapUsed, heapTotal, external };
    process.send?.(reply);
  });
  // The parent went away: do not linger.
  process.on('disconnect', () => process.exit(0));
}
