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
});
