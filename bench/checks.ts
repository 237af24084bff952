import { CHUNKS } from './bodies';
import type { AnnotatedCell, KeyFigure, ManyStreamsResult, TargetCheck } from './report';

export interface RepeatRun {
  run: number;
  rps: number;
  /** After a full GC, MB. */
  settledRssMb: number;
}

export interface CheckInput {
  cells: AnnotatedCell[];
  /** Medians of the repeated json/small/c16 cell: the CPU and throughput targets are checked on these. */
  key: KeyFigure[];
  paced: AnnotatedCell[];
  many: ManyStreamsResult[];
  repeats: RepeatRun[];
  /** JSON.parse of the large body (from a Buffer), µs, as measured in the benchmark process. */
  largeParseUs: number;
}

const find = (cells: AnnotatedCell[], kind: AnnotatedCell['kind'], mode: AnnotatedCell['mode'], size: AnnotatedCell['size'], concurrency: number) =>
  cells.filter((c) => c.kind === kind && c.mode === mode && c.size === size && c.concurrency === concurrency);

const us = (v: number): string => `${v.toFixed(0)} µs`;

/** The targets, each with the figure from this run. */
export function evaluateTargets({ cells, key, paced, many, repeats, largeParseUs }: CheckInput): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const c of key.filter((k) => k.kind === 'passthrough')) {
    checks.push({ target: `${c.target} json c16: CPU ≤ 250 µs/req (median)`, measured: us(c.cpuUsPerRequest), met: c.cpuUsPerRequest <= 250 });
    if (c.floorMultiple !== undefined) {
      checks.push({ target: `${c.target} json c16: CPU ≤ 2.5x floor (median)`, measured: `${c.floorMultiple.toFixed(2)}x`, met: c.floorMultiple <= 2.5 });
    }
    checks.push({ target: `${c.target} json c16: ≥ 5000 req/s (median)`, measured: `${c.rps.toFixed(0)} req/s`, met: c.rps >= 5000 });
  }
  for (const c of key.filter((k) => k.kind === 'translated')) {
    checks.push({ target: `${c.target} json c16: CPU ≤ 400 µs/req (median)`, measured: us(c.cpuUsPerRequest), met: c.cpuUsPerRequest <= 400 });
  }
  for (const kind of ['passthrough', 'translated'] as const) {
    for (const c of find(cells, kind, 'stream', 'small', 1)) {
      const added = c.ttfbOverheadMs?.p50;
      checks.push({ target: `${c.target} stream c1: TTFB +≤ 0.5 ms (p50)`, measured: added === undefined ? '-' : `${added.toFixed(2)} ms`, met: added === undefined ? undefined : added <= 0.5 });
    }
  }
  for (const c of paced.filter((p) => p.kind === 'passthrough' || p.kind === 'translated')) {
    // overhead = this cell minus the direct one, so the direct figure is what remains.
    const pct = c.overheadMs ? (c.overheadMs.p50 / (c.latencyMs.p50 - c.overheadMs.p50)) * 100 : NaN;
    checks.push({ target: `${c.target} paced: ≤ 2% added to stream time (p50)`, measured: `${pct.toFixed(2)} %`, met: Number.isNaN(pct) ? undefined : pct <= 2 });
    checks.push({ target: `${c.target} paced: every chunk written as it arrives`, measured: `≥ ${String(c.minReads)} reads per stream`, met: c.minReads === undefined ? undefined : c.minReads >= CHUNKS });
  }
  const floorSmall = key.find((k) => k.kind === 'floor');
  const floorLarge = find(cells, 'floor', 'json', 'large', 16)[0];
  for (const large of find(cells, 'passthrough', 'json', 'large', 16)) {
    const small = key.find((k) => k.target === large.target);
    if (!small || !floorSmall || !floorLarge) continue;
    const growth = large.cpuUsPerRequest - small.cpuUsPerRequest - (floorLarge.cpuUsPerRequest - floorSmall.cpuUsPerRequest);
    checks.push({
      target: `${large.target} 200 KB: CPU growth beyond the floor's ≤ 1.5x one JSON.parse (${us(largeParseUs)})`,
      measured: us(growth),
      met: growth <= 1.5 * largeParseUs,
    });
  }
  for (const m of many) {
    checks.push({ target: `${m.target}: ${m.streams} open streams < 200 MB RSS`, measured: `${m.peakRssMb.toFixed(0)} MB, ${m.completed} completed`, met: m.peakRssMb < 200 && m.completed === m.streams });
  }
  const gatewayCells = cells.filter((c) => c.kind === 'passthrough' || c.kind === 'translated');
  for (const [label, group] of [['~1 KB bodies', gatewayCells.filter((c) => c.size === 'small')], ['200 KB bodies', gatewayCells.filter((c) => c.size === 'large')]] as const) {
    if (group.length === 0) continue;
    const peak = Math.max(...group.map((c) => c.peakRssMb));
    checks.push({ target: `gateway peak RSS under load, ${label}, ≤ 130 MB`, measured: `${peak.toFixed(0)} MB`, met: peak <= 130 });
  }
  if (repeats.length > 1) {
    const growth = repeats[repeats.length - 1].settledRssMb - repeats[0].settledRssMb;
    checks.push({
      target: `no RSS growth across ${repeats.length} repeated runs (settled RSS, ≤ 5 MB)`,
      measured: `${repeats.map((r) => r.settledRssMb.toFixed(0)).join(' → ')} MB`,
      met: growth <= 5,
    });
  }
  return checks;
}
