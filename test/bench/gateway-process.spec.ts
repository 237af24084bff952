import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { buildGateway } from '../../bench/build-gateway';
import { startChild } from '../../bench/child';
import type { GatewayProcessInput, GatewayReady } from '../../bench/gateway-process';
import { productionNodeFlags } from '../../bench/start-flags';
import { startSimulator, type Simulator } from '../../simulator';

const ROOT = path.resolve(__dirname, '../..');

describe('bench: the gateway process, from the build the benchmark makes', function () {
  this.timeout(60_000);
  let sim: Simulator;
  let work: string;

  before(async () => {
    sim = await startSimulator({ port: 0 });
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-gateway-'));
  });
  after(async () => {
    await sim.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('starts outside the repository with every platform mounted, and serves through it', async () => {
    const build = buildGateway(ROOT, path.join(work, 'build'));
    const input: GatewayProcessInput = { simulatorUrl: sim.url, logLevel: 'warn', license: 'lic-bench-spec-0123456789', storePath: path.join(work, 'gateway.db'), optional: ['claude', 'gemini'] };
    const gateway = await startChild<GatewayReady>('gateway', build.script, {
      env: { BENCH_GATEWAY: JSON.stringify(input), NODE_ENV: 'production', NODE_PATH: build.nodePath },
      execArgv: productionNodeFlags(ROOT),
    });
    try {
      expect(gateway.ready.skipped).to.deep.equal({});
      expect(gateway.ready.platforms).to.deep.equal(['openai', 'claude', 'gemini']);
      const answer = await fetch(`${gateway.ready.url}/gemini/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${input.license}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'bench' }] }),
      });
      expect(answer.status).to.equal(200);
      expect(((await answer.json()) as { choices: Array<{ message: { content: string } }> }).choices[0].message.content).to.equal('Echo: bench');
    } finally {
      await gateway.stop();
    }
  });

  it('runs the simulator, the floor and the Express + axios reference from the same build, each proxy forwarding to the simulator', async () => {
    const build = buildGateway(ROOT, path.join(work, 'build-participants'));
    expect(path.relative(path.join(work, 'build-participants'), build.simulatorScript)).to.equal(path.join('bench', 'simulator-process.js'));
    const plainJs = { execArgv: [] };
    const simulator = await startChild<{ ready: true; url: string }>('simulator', build.simulatorScript, plainJs);
    try {
      const floor = await startChild<{ ready: true; url: string }>('floor', build.floorScript, { ...plainJs, env: { BENCH_UPSTREAM: simulator.ready.url } });
      const reference = await startChild<{ ready: true; url: string }>('reference', build.referenceScript, { ...plainJs, env: { BENCH_UPSTREAM: simulator.ready.url, NODE_PATH: build.nodePath } });
      try {
        for (const [proxy, content] of [[floor, 'floor'], [reference, 'reference']] as const) {
          const answer = await fetch(`${proxy.ready.url}/openai/v1/chat/completions`, {
            method: 'POST',
            headers: { authorization: 'Bearer sk-bench-spec-0123456789', 'content-type': 'application/json' },
            body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] }),
          });
          expect(answer.status, proxy.name).to.equal(200);
          expect(answer.headers.get('content-type'), proxy.name).to.match(/^application\/json/);
          expect(((await answer.json()) as { choices: Array<{ message: { content: string } }> }).choices[0].message.content).to.equal(`Echo: ${content}`);
        }
        // An upstream error passes through as it is: status and body.
        const refused = await fetch(`${reference.ready.url}/openai/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
        expect(refused.status).to.be.within(400, 499);
        // All three answer the benchmark's questions about their own CPU and memory.
        const stats = await Promise.all([simulator.read(), floor.read(), reference.read()]);
        for (const reading of stats) expect(reading.userUs).to.be.greaterThan(0);
      } finally {
        await Promise.all([floor.stop(), reference.stop()]);
      }
    } finally {
      await simulator.stop();
    }
  });
});
