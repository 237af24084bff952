import type { CellResult } from './measure';
import { subtract, type Percentiles } from './stats';
import type { Target } from './targets';

export interface AnnotatedCell extends CellResult {
  /** This cell minus the same cell sent straight to the simulator (same vendor, mode, size, concurrency), ms. */
  overheadMs?: Percentiles;
  ttfbOverheadMs?: Percentiles;
  /** CPU per request as a multiple of the floor proxy's in the same cell. */
  floorMultiple?: number;
}

const cellKey = (c: Pick<CellResult, 'mode' | 'size' | 'concurrency'>): string => `${c.mode}|${c.size}|${c.concurrency}`;

export function annotate(cells: CellResult[], targets: Target[]): AnnotatedCell[] {
  const byTarget = new Map(targets.map((t) => [t.id, t]));
  const find = (id: string, key: string): CellResult | undefined => cells.find((c) => c.target === id && cellKey(c) === key);
  return cells.map((cell) => {
    const target = byTarget.get(cell.target);
    if (!target || target.kind === 'direct') return cell;
    const key = cellKey(cell);
    const direct = find(`direct:${target.upstream}`, key);
    const floor = find('floor:openai', key);
    return {
      ...cell,
      overheadMs: subtract(cell.latencyMs, direct?.latencyMs),
      ttfbOverheadMs: subtract(cell.ttfbMs, direct?.ttfbMs),
      floorMultiple: floor && target.kind !== 'floor' ? cell.cpuUsPerRequest / floor.cpuUsPerRequest : undefined,
    };
  });
}

const fixed = (value: number | undefined, digits: number): string => (value === undefined || Number.isNaN(value) ? '-' : value.toFixed(digits));
const signed = (value: number | undefined, digits: number): string =>
  value === undefined || Number.isNaN(value) ? '-' : `${value >= 0 ? '+' : ''}${value.toFixed(digits)}`;

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

const MODE_TITLES: Record<CellResult['mode'], string> = {
  json: 'non-streaming',
  stream: 'streaming, 20 chunks',
  paced: 'streaming, 20 chunks 10 ms apart',
  slow: 'slow streams',
};

/** The main table, one section per mode and body size. */
export function formatCells(cells: AnnotatedCell[]): string {
  const sections: string[] = [];
  const groups = new Map<string, AnnotatedCell[]>();
  for (const cell of cells) {
    const key = `${MODE_TITLES[cell.mode]}, ${cell.size} body`;
    groups.set(key, [...(groups.get(key) ?? []), cell]);
  }
  for (const [title, group] of groups) {
    const rows = [...group]
      .sort((a, b) => a.concurrency - b.concurrency)
      .map((c) => [
        c.target,
        String(c.concurrency),
        fixed(c.rps, 0),
        fixed(c.latencyMs.p50, 2),
        fixed(c.latencyMs.p90, 2),
        fixed(c.latencyMs.p99, 2),
        signed(c.overheadMs?.p50, 2),
        signed(c.overheadMs?.p90, 2),
        signed(c.overheadMs?.p99, 2),
        c.ttfbMs ? `${fixed(c.ttfbMs.p50, 2)} (${signed(c.ttfbOverheadMs?.p50, 2)})` : '-',
        fixed(c.cpuUsPerRequest, 0),
        c.floorMultiple === undefined ? '-' : `${c.floorMultiple.toFixed(2)}x`,
        c.kind === 'direct' ? '-' : fixed(c.peakRssMb, 0),
        c.failed > 0 ? String(c.failed) : '',
      ]);
    sections.push(
      `## ${title}  (ms; "+" = minus direct; CPU = µs per request of the proxy, of the simulator on direct rows)\n` +
        table(['target', 'conc', 'req/s', 'p50', 'p90', 'p99', '+p50', '+p90', '+p99', 'TTFB p50 (+)', 'CPU µs', 'x floor', 'RSS MB', 'failed'], rows),
    );
  }
  return sections.join('\n\n');
}

/** The headline cell (non-streaming, small body, concurrency 16) run several times: medians, steadier on a shared machine. */
export interface KeyFigure {
  target: string;
  kind: AnnotatedCell['kind'];
  runs: number;
  rps: number;
  cpuUsPerRequest: number;
  /** Median CPU over the floor's median CPU. */
  floorMultiple?: number;
}

export function formatKeyFigures(figures: KeyFigure[]): string {
  return table(
    ['target', 'runs', 'req/s', 'CPU µs', 'x floor'],
    figures.map((f) => [f.target, String(f.runs), fixed(f.rps, 0), fixed(f.cpuUsPerRequest, 0), f.floorMultiple === undefined ? '-' : `${f.floorMultiple.toFixed(2)}x`]),
  );
}

export interface ManyStreamsResult {
  target: string;
  streams: number;
  completed: number;
  rssBeforeMb: number;
  rssOpenMb: number;
  peakRssMb: number;
}

export function formatManyStreams(results: ManyStreamsResult[]): string {
  return table(
    ['target', 'streams', 'completed', 'RSS before MB', 'RSS all open MB', 'peak RSS MB'],
    results.map((r) => [r.target, String(r.streams), String(r.completed), fixed(r.rssBeforeMb, 0), fixed(r.rssOpenMb, 0), fixed(r.peakRssMb, 0)]),
  );
}

export interface TargetCheck {
  target: string;
  measured: string;
  met: boolean | undefined;
}

export function formatChecks(checks: TargetCheck[]): string {
  return table(
    ['target', 'measured', 'met'],
    checks.map((c) => [c.target, c.measured, c.met === undefined ? 'n/a' : c.met ? 'yes' : 'NO']),
  );
}
