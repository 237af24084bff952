import type { Child } from './child';
import { buildBody, type BodyMode, type BodySize } from './bodies';
import { runLoad } from './load';
import type { StatsReply } from './process-stats';
import { percentiles, type Percentiles } from './stats';
import { runStreamClients } from './stream-client';
import type { Target } from './targets';

export interface CellSpec {
  target: Target;
  mode: BodyMode;
  concurrency: number;
  size: BodySize;
  durationS: number;
  /** autocannon (throughput) or the timing client (time to first byte, reads per stream). */
  client: 'autocannon' | 'stream-client';
}

export interface CellResult {
  target: string;
  kind: Target['kind'];
  mode: BodyMode;
  size: BodySize;
  concurrency: number;
  client: CellSpec['client'];
  requests: number;
  failed: number;
  rps: number;
  /** Whole response, ms. */
  latencyMs: Percentiles;
  /** Streams: first body byte, ms (timing client only). */
  ttfbMs?: Percentiles;
  /** Streams: fewest body reads any one answer took (timing client only). */
  minReads?: number;
  /** Of the process under test (the gateway or the floor; the simulator for direct cells), µs per request. */
  cpuUsPerRequest: number;
  /** The simulator's, µs per request. */
  upstreamCpuUsPerRequest: number;
  /** Of the process under test during this cell, MB. */
  peakRssMb: number;
}

export interface Participants {
  simulator: Child<{ ready: true; url: string }>;
  floor: Child<{ ready: true; url: string }>;
  reference: Child<{ ready: true; url: string }>;
  gateway: Child<{ ready: true; url: string }>;
}

export const MB = 1024 * 1024;

export function urlOf(participants: Participants, target: Target, stream: boolean): string {
  return participants[target.via].ready.url + target.path(stream);
}

const cpuOf = (s: StatsReply): number => s.userUs + s.systemUs;

/** Runs one cell and reads the CPU and memory its processes spent on it. */
export async function measureCell(participants: Participants, spec: CellSpec): Promise<CellResult> {
  const { target, mode, size, concurrency } = spec;
  const stream = mode !== 'json';
  const body = buildBody(target.format, size, mode);
  const url = urlOf(participants, target, stream);
  const subject = participants[target.via];
  const upstream = participants.simulator;
  await Promise.all([subject.reset(), upstream === subject ? undefined : upstream.reset()]);

  let requests: number;
  let failed: number;
  let elapsedS: number;
  let latencyMs: Percentiles;
  let ttfbMs: Percentiles | undefined;
  let minReads: number | undefined;
  if (spec.client === 'autocannon') {
    const load = await runLoad({ url, headers: target.headers, body, connections: concurrency, durationS: spec.durationS });
    requests = load.ok;
    failed = load.failed;
    elapsedS = load.elapsedS;
    latencyMs = percentiles(load.latenciesMs);
  } else {
    const run = await runStreamClients({ url, headers: target.headers, body, endMarker: target.streamEnd }, concurrency, spec.durationS * 1000);
    const good = run.samples.filter((s) => s.complete);
    requests = good.length;
    failed = run.samples.length - good.length;
    elapsedS = run.elapsedS;
    latencyMs = percentiles(good.map((s) => s.totalMs));
    ttfbMs = percentiles(good.map((s) => s.firstByteMs));
    minReads = good.reduce((min, s) => Math.min(min, s.reads), Infinity);
  }
  const [subjectStats, upstreamStats] = await Promise.all([subject.read(), upstream.read()]);
  const perRequest = (us: number): number => (requests > 0 ? us / requests : NaN);
  return {
    target: target.id,
    kind: target.kind,
    mode,
    size,
    concurrency,
    client: spec.client,
    requests,
    failed,
    rps: requests / elapsedS,
    latencyMs,
    ttfbMs,
    minReads,
    cpuUsPerRequest: perRequest(cpuOf(subjectStats)),
    upstreamCpuUsPerRequest: perRequest(cpuOf(upstreamStats)),
    peakRssMb: subjectStats.peakRss / MB,
  };
}
