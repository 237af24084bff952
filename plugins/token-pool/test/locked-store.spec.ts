import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import OpenAI from 'openai';
import { startGateway, TEST_ADMIN_KEY, TEST_LICENSE, type RunningGateway } from '../../../test/helpers/start-gateway';
import { startRawUpstream, type RawUpstream } from '../../../test/helpers/start-raw-upstream';

const LIMITED = 'tok-aaaaaaaaaaaa-0001';
const HEALTHY = 'tok-bbbbbbbbbbbb-0002';

const COMPLETION = { id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } };

/**
 * The sqlite file write-locked by another connection (an operator's sqlite3 shell, a backup) while a token is marked:
 * the request still goes on to another token, the process keeps answering, and the mark reaches the file once the
 * lock is gone, so a restart keeps it.
 */
describe('e2e: token pool with its sqlite store write-locked by another connection', function () {
  this.timeout(30_000);
  let upstream: RawUpstream;
  let dir: string;
  const gateways: RunningGateway[] = [];
  const start = async (): Promise<RunningGateway> => {
    const gw = await startGateway(
      { pool: { plugin: 'token-pool', baseUrl: upstream.url, rotation: 2, tokens: [{ token: LIMITED }, { token: HEALTHY }] } },
      { store: { driver: 'sqlite', path: path.join(dir, 'gateway.db') } },
    );
    gateways.push(gw);
    return gw;
  };
  const poolView = async (gw: RunningGateway): Promise<Array<{ masked: string; state: string }>> =>
    ((await (await fetch(`${gw.url}/admin/pools/pool`, { headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` } })).json()) as { credentials: Array<{ masked: string; state: string }> }).credentials;

  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'gw-pool-lock-'));
    upstream = await startRawUpstream();
    upstream.handle((req, res) => {
      if (String(req.headers.authorization).includes(LIMITED)) {
        res.writeHead(429, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(COMPLETION));
    });
  });
  after(async () => {
    for (const gw of gateways) await gw.close().catch(() => undefined);
    await upstream.close();
  });

  it('retries on the healthy token, keeps answering, and stores the mark once the lock is released', async () => {
    const gw = await start();
    const other = new Database(path.join(dir, 'gateway.db'));
    other.exec('BEGIN IMMEDIATE');
    const client = new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/pool/v1`, maxRetries: 0 });
    const answers = await Promise.all([0, 1].map(() => client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })));
    expect(answers.map((answer) => answer.choices[0].message.content)).to.deep.equal(['ok', 'ok']);
    const health = await fetch(`${gw.url}/healthz`);
    expect(health.status).to.equal(200);
    expect((await poolView(gw)).map((c) => c.state)).to.include('limit_marked');
    other.exec('ROLLBACK');
    other.close();
    // Shutdown writes what the store could not take before.
    await gw.close();
    const stored = new Database(path.join(dir, 'gateway.db'), { readonly: true });
    const states = stored.prepare<[], { value: string }>("SELECT value FROM entries WHERE namespace = 'credentials:pool'").all().map((row) => (JSON.parse(row.value) as { state: string }).state);
    stored.close();
    expect(states).to.include('limit_marked');
    const restarted = await start();
    expect((await poolView(restarted)).map((c) => c.state)).to.include('limit_marked');
  });
});
