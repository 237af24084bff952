import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildGateway } from './build-gateway';
import { buildBody, CHUNKS, SLOW_DELAY_MS, type BodySize } from './bodies';
import { evaluateTargets, type RepeatRun } from './checks';
import { startChild } from './child';
import { productionNodeFlags } from './start-flags';
import type { GatewayProcessInput, GatewayReady } from './gateway-process';
import { measureCell, MB, urlOf, type CellResult, type CellSpec, type Participants } from './measure';
import { annotate, formatCells, formatChecks, formatKeyFigures, formatManyStreams, type KeyFigure, type ManyStreamsResult } from './report';
import { median } from './stats';
import { openManyStreams } from './stream-client';
import { BENCH_LICENSE, buildTargets, presentPlugins, REFERENCE_TARGET, type Target } from './targets';

/**
 * `npm run bench`: the simulator, the floor proxy and the gateway each in their own process on loopback; the load
 * comes from this one (autocannon, plus a small timing client for time to first byte). Prints the tables and writes
 * bench/results/latest.json. Env: BENCH_LOG_LEVEL (default info), BENCH_SCALE (multiplies every duration),
 * BENCH_RUNTIME=tsx (run the TypeScript sources of the gateway, the simulator and the floor through tsx, as the tests do,
 * instead of the build `npm start` runs and plain JavaScript beside it).
 */

const ROOT = path.resolve(__dirname, '..');
const RESULTS = path.join(__dirname, 'results', 'latest.json');
/** What the shipped gateway.config.ts uses: one access-log line per request, written as JSON. */
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
const SCALE = Number(process.env.BENCH_SCALE ?? '1');
const RUNTIME = process.env.BENCH_RUNTIME === 'tsx' ? 'tsx' : 'build';
const CONCURRENCIES = [1, 16, 64];
const MANY_STREAMS = 1000;
const REPEATS = 3;
/** Runs of the headline cell (json, small, c16) per target, the matrix's own included. */
const KEY_RUNS = 3;

const seconds = (concurrency: number): number => (concurrency === 1 ? 1.5 : 2.5) * SCALE;

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

async function sanityCheck(participants: Participants, target: Target): Promise<string | undefined> {
  for (const stream of [false, true]) {
    const body = buildBody(target.format, 'small', stream ? 'stream' : 'json');
    const res = await fetch(urlOf(participants, target, stream), { method: 'POST', headers: target.headers, body });
    const text = await res.text();
    const ok = res.status === 200 && (stream ? text.includes(target.streamEnd) : text.includes('Echo: Summarise'));
    if (!ok) return `${stream ? 'stream' : 'json'} answered ${res.status}: ${text.slice(0, 200)}`;
  }
  return undefined;
}

/** Every cell, grouped so that a gateway cell runs right after its direct and floor cells. */
function plan(targets: Target[]): CellSpec[] {
  const specs: CellSpec[] = [];
  const add = (mode: 'json' | 'stream', size: BodySize, concurrency: number): void => {
    const client = mode === 'stream' && concurrency === 1 ? 'stream-client' : 'autocannon';
    for (const target of targets) specs.push({ target, mode, size, concurrency, client, durationS: seconds(concurrency) });
  };
  for (const mode of ['json', 'stream'] as const) for (const c of CONCURRENCIES) add(mode, 'small', c);
  // Large bodies cost on the way in; the answer is the same as for small ones, so streaming and c64 add nothing.
  for (const c of [1, 16]) add('json', 'large', c);
  return specs;
}

function parseCostUs(): number {
  const body = buildBody('chat-completions', 'large', 'json');
  for (let i = 0; i < 50; i += 1) JSON.parse(body.toString('utf8'));
  const runs = 200;
  const started = performance.now();
  for (let i = 0; i < runs; i += 1) JSON.parse(body.toString('utf8'));
  return ((performance.now() - started) * 1000) / runs;
}

function keyFigures(targets: Target[], samples: CellResult[]): KeyFigure[] {
  const figures = targets.map((target) => {
    const runs = samples.filter((s) => s.target === target.id);
    return { target: target.id, kind: target.kind, runs: runs.length, rps: median(runs.map((r) => r.rps)), cpuUsPerRequest: median(runs.map((r) => r.cpuUsPerRequest)) };
  });
  const floor = figures.find((f) => f.kind === 'floor');
  return figures.map((f) => (floor && f.kind !== 'floor' ? { ...f, floorMultiple: f.cpuUsPerRequest / floor.cpuUsPerRequest } : f));
}

async function manyStreams(participants: Participants, target: Target): Promise<ManyStreamsResult> {
  const before = await participants.gateway.settle();
  await participants.gateway.reset();
  let open = before;
  const samples = await openManyStreams(
    { url: urlOf(participants, target, true), headers: target.headers, body: buildBody(target.format, 'small', 'slow'), endMarker: target.streamEnd },
    MANY_STREAMS,
    async () => {
      open = await participants.gateway.read();
    },
  );
  const after = await participants.gateway.read();
  return {
    target: target.id,
    streams: MANY_STREAMS,
    completed: samples.filter((s) => s.complete).length,
    rssBeforeMb: before.rss / MB,
    rssOpenMb: open.rss / MB,
    peakRssMb: after.peakRss / MB,
  };
}

async function main(): Promise<void> {
  const started = Date.now();
  const optional = presentPlugins(ROOT);
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-bench-'));
  log(`benchmark: gateway ${RUNTIME === 'tsx' ? 'through tsx' : 'the build npm start runs'} (node flags of npm start: ${productionNodeFlags(ROOT).join(' ') || 'none'}), log level ${LOG_LEVEL}, NODE_ENV=production, ${os.cpus().length} CPUs, plugins found: openai${optional.map((p) => `, ${p}`).join('')}`);
  const build = RUNTIME === 'build' ? buildGateway(ROOT, path.join(workDir, 'build')) : undefined;

  const children: Array<{ stop(): Promise<void> }> = [];
  try {
    // From the build, the simulator and the floor run as plain JavaScript like the gateway; through tsx otherwise.
    const plainJs = { execArgv: [] };
    const simulator = await startChild<{ ready: true; url: string }>('simulator', build?.simulatorScript ?? path.join(__dirname, 'simulator-process.ts'), build ? plainJs : {});
    children.push(simulator);
    const gatewayInput: GatewayProcessInput = { simulatorUrl: simulator.ready.url, logLevel: LOG_LEVEL, license: BENCH_LICENSE, storePath: path.join(workDir, 'gateway.db'), optional };
    const gatewayEnv = { BENCH_GATEWAY: JSON.stringify(gatewayInput), NODE_ENV: 'production' };
    const nodeFlags = productionNodeFlags(ROOT);
    const [floor, reference, gateway] = await Promise.all([
      startChild<{ ready: true; url: string }>('floor', build?.floorScript ?? path.join(__dirname, 'bare-proxy.ts'), { env: { BENCH_UPSTREAM: simulator.ready.url }, ...(build ? plainJs : {}) }),
      build
        ? startChild<{ ready: true; url: string }>('reference', build.referenceScript, { env: { BENCH_UPSTREAM: simulator.ready.url, NODE_ENV: 'production', NODE_PATH: build.nodePath }, execArgv: nodeFlags })
        : startChild<{ ready: true; url: string }>('reference', path.join(__dirname, 'reference-proxy.ts'), { env: { BENCH_UPSTREAM: simulator.ready.url, NODE_ENV: 'production' }, execArgv: [...nodeFlags, '--import', 'tsx'] }),
      build
        ? startChild<GatewayReady>('gateway', build.script, { env: { ...gatewayEnv, NODE_PATH: build.nodePath }, execArgv: nodeFlags })
        : startChild<GatewayReady>('gateway', path.join(__dirname, 'gateway-process.ts'), { env: gatewayEnv, execArgv: [...nodeFlags, '--import', 'tsx'] }),
    ]);
    children.push(floor, reference, gateway);
    const participants: Participants = { simulator, floor, reference, gateway };
    const notes: string[] = [];
    for (const name of ['claude', 'gemini'] as const) {
      if (!optional.includes(name)) notes.push(`${name}: plugins/${name} is not in this checkout; its cells are skipped`);
      else if (gateway.ready.skipped[name]) notes.push(`${name}: plugin did not mount (${gateway.ready.skipped[name]}); its cells are skipped`);
    }
    if (!gateway.ready.platforms.includes('claude')) notes.push('translated path: /openai/v1/messages (Messages → chat completions) stands in for /claude/v1/chat/completions');

    const targets: Target[] = [];
    for (const target of buildTargets(gateway.ready.platforms)) {
      const problem = await sanityCheck(participants, target);
      if (problem) notes.push(`${target.id}: skipped, ${problem}`);
      else targets.push(target);
    }
    for (const note of notes) log(`note: ${note}`);

    log('warming up');
    for (const target of targets) {
      for (const mode of ['json', 'stream'] as const) {
        await measureCell(participants, { target, mode, size: 'small', concurrency: 16, client: 'autocannon', durationS: 0.5 * SCALE });
      }
    }
    const idle = await gateway.settle();

    const cells: CellResult[] = [];
    let largeWarm = false;
    for (const spec of plan(targets)) {
      if (spec.size === 'large' && !largeWarm) {
        // The first 200 KB bodies grow the heap and compile the large-body paths: not what a cell should measure.
        log('warming up with 200 KB bodies');
        for (const target of targets) await measureCell(participants, { target, mode: 'json', size: 'large', concurrency: 16, client: 'autocannon', durationS: 0.5 * SCALE });
        largeWarm = true;
      }
      const cell = await measureCell(participants, spec);
      cells.push(cell);
      log(`${cell.target} ${cell.mode} ${cell.size} c${cell.concurrency}: ${cell.rps.toFixed(0)} req/s, p50 ${cell.latencyMs.p50.toFixed(2)} ms, ${cell.cpuUsPerRequest.toFixed(0)} µs CPU/req`);
    }

    log(`repeating the non-streaming c16 cell (${KEY_RUNS} runs in all) for steadier medians, with the Express + axios reference`);
    const keyTargets = targets.filter((t) => t.kind !== 'direct');
    const keySamples = cells.filter((c) => c.mode === 'json' && c.size === 'small' && c.concurrency === 16);
    // The reference runs only in this cell, after the floor in each round; warmed up first like every other target.
    if ((await sanityCheck(participants, REFERENCE_TARGET)) === undefined) {
      await measureCell(participants, { target: REFERENCE_TARGET, mode: 'json', size: 'small', concurrency: 16, client: 'autocannon', durationS: 0.5 * SCALE });
      keySamples.push(await measureCell(participants, { target: REFERENCE_TARGET, mode: 'json', size: 'small', concurrency: 16, client: 'autocannon', durationS: seconds(16) }));
      keyTargets.splice(keyTargets.findIndex((t) => t.kind === 'floor') + 1, 0, REFERENCE_TARGET);
    } else {
      notes.push(`${REFERENCE_TARGET.id}: skipped, it did not answer`);
    }
    for (let run = 1; run < KEY_RUNS; run += 1) {
      for (const target of keyTargets) {
        keySamples.push(await measureCell(participants, { target, mode: 'json', size: 'small', concurrency: 16, client: 'autocannon', durationS: seconds(16) }));
      }
    }
    const key = keyFigures(keyTargets, keySamples);

    const pacedCells: CellResult[] = [];
    for (const target of targets) {
      pacedCells.push(await measureCell(participants, { target, mode: 'paced', size: 'small', concurrency: 16, client: 'stream-client', durationS: 2.5 * SCALE }));
    }

    log(`opening ${MANY_STREAMS} concurrent streams (${CHUNKS} chunks, ${SLOW_DELAY_MS} ms apart)`);
    const many: ManyStreamsResult[] = [];
    for (const target of targets.filter((t) => t.via === 'gateway').filter((t, i, all) => all.findIndex((o) => o.kind === t.kind) === i)) {
      many.push(await manyStreams(participants, target));
    }

    log('repeating the passthrough c64 cell to watch RSS');
    const repeats: RepeatRun[] = [];
    const passthrough = targets.find((t) => t.kind === 'passthrough');
    for (let run = 1; passthrough && run <= REPEATS; run += 1) {
      const cell = await measureCell(participants, { target: passthrough, mode: 'json', size: 'small', concurrency: 64, client: 'autocannon', durationS: 2.5 * SCALE });
      repeats.push({ run, rps: cell.rps, settledRssMb: (await gateway.settle()).rss / MB });
    }

    const annotated = annotate(cells, targets);
    const pacedAnnotated = annotate(pacedCells, targets);
    const checks = evaluateTargets({ cells: annotated, key, paced: pacedAnnotated, many, repeats, largeParseUs: parseCostUs() });
    const output = [
      formatCells(annotated),
      `## Non-streaming, small body, concurrency 16: medians of ${KEY_RUNS} runs\n${formatKeyFigures(key)}`,
      formatCells(pacedAnnotated),
      `## ${MANY_STREAMS} concurrent slow streams through the gateway\n${formatManyStreams(many)}`,
      `## Gateway settled RSS: idle after warm-up ${(idle.rss / MB).toFixed(0)} MB; after repeated runs ${repeats.map((r) => r.settledRssMb.toFixed(0)).join(', ')} MB`,
      `## Targets\n${formatChecks(checks)}`,
      notes.map((n) => `note: ${n}`).join('\n'),
    ].join('\n\n');
    process.stdout.write(`${output}\n`);

    const durationS = (Date.now() - started) / 1000;
    fs.writeFileSync(
      RESULTS,
      `${JSON.stringify(
        {
          date: new Date().toISOString(),
          durationS,
          machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, node: process.version, platform: `${os.platform()} ${os.release()}` },
          settings: { runtime: RUNTIME, logLevel: LOG_LEVEL, scale: SCALE, platforms: gateway.ready.platforms },
          notes,
          cells: annotated,
          key,
          paced: pacedAnnotated,
          manyStreams: many,
          repeats,
          idleRssMb: idle.rss / MB,
          checks,
        },
        null,
        2,
      )}\n`,
    );
    log(`wrote ${path.relative(process.cwd(), RESULTS)} (${durationS.toFixed(0)} s in all)`);
  } finally {
    await Promise.all(children.map((child) => child.stop()));
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`benchmark failed: ${String(error instanceof Error ? error.stack : error)}\n`);
  process.exit(1);
});
