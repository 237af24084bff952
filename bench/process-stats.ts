import fs from 'node:fs';

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
  /** Highest RSS since the last reset, bytes. */
  peakRss: number;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  /** Memory of Buffers and other objects outside the V8 heap. */
  external: number;
}

/** Where no kernel peak is kept: often enough to catch a peak under load. */
const SAMPLE_MS = 25;

/** The peak RSS since the last restart of the reading. */
interface PeakRss {
  restart(): void;
  read(): number;
}

/**
 * Linux keeps each process's peak RSS (VmHWM in /proc/self/status) and resets it on request (`5` written to
 * /proc/self/clear_refs): read at the window's ends only, it costs the measured process nothing while it works and
 * misses no short peak. Sampling RSS instead read /proc/self/stat 40 times a second in the measured process, which
 * its CPU figures counted (a few µs per request at 2–3k req/s, measured in a profile of the gateway).
 */
function kernelPeakRss(): PeakRss | undefined {
  const read = (): number => {
    const match = /^VmHWM:\s*(\d+) kB/m.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    if (!match) throw new Error('no VmHWM');
    return Number(match[1]) * 1024;
  };
  try {
    fs.writeFileSync('/proc/self/clear_refs', '5');
    read();
  } catch {
    return undefined;
  }
  return { restart: () => fs.writeFileSync('/proc/self/clear_refs', '5'), read };
}

/** Elsewhere: RSS sampled on a timer. */
function sampledPeakRss(): PeakRss {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, SAMPLE_MS);
  timer.unref();
  return {
    restart: () => {
      peak = process.memoryUsage.rss();
    },
    read: () => (peak = Math.max(peak, process.memoryUsage.rss())),
  };
}

export function serveStats(): void {
  if (!process.send) throw new Error('serveStats() needs an IPC channel (spawn with stdio "ipc")');
  let base = process.cpuUsage();
  const peak = kernelPeakRss() ?? sampledPeakRss();

  process.on('message', (message: StatsCommand) => {
    if (message.cmd === 'gc') {
      const gc = (globalThis as { gc?: () => void }).gc;
      gc?.();
      gc?.();
    }
    if (message.cmd === 'reset') {
      base = process.cpuUsage();
      peak.restart();
    }
    const cpu = process.cpuUsage(base);
    const { rss, heapUsed, heapTotal, external } = process.memoryUsage();
    const reply: StatsReply = { id: message.id, userUs: cpu.user, systemUs: cpu.system, peakRss: Math.max(peak.read(), rss), rss, heapUsed, heapTotal, external };
    process.send?.(reply);
  });
  // The parent went away: do not linger.
  process.on('disconnect', () => process.exit(0));
}
