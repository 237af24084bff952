import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { expect } from 'chai';
import OpenAI from 'openai';
import { startSimulator, type Simulator } from '../../../simulator';
import { startGateway, TEST_ADMIN_KEY, TEST_LICENSE, type RunningGateway } from '../../../test/helpers/start-gateway';

/** The simulator refuses these by name: `limited` → 429 rate limit (retry-after 1), `banned` → 401 suspended, `quota` → 429 quota. */
const TOKENS = {
  limited: 'sim-limited-token-0001',
  banned: 'sim-banned-token-0002',
  quota: 'sim-quota-token-0003',
  good: 'sim-good-token-0004',
  spare: 'sim-good-token-0005',
};

interface PoolRow {
  id: string;
  masked: string;
  tier: string;
  state: string;
  inRotation: boolean;
  requests: number;
  errors: number;
  lastError?: string;
  cooldownUntil?: string;
}

describe('e2e: SDKs → gateway (token-pool plugin) → simulator, with a restart on the same sqlite file', function () {
  this.timeout(30_000);
  let sim: Simulator;
  let gw: RunningGateway;
  let dir: string;

  const platforms = (baseUrl: string) => ({
    pool: {
      plugin: 'token-pool',
      baseUrl,
      rotation: 3,
      maxAttempts: 4,
      tokens: [
        { token: TOKENS.limited },
        { token: TOKENS.banned },
        { token: TOKENS.quota },
        { token: TOKENS.good, tier: 'premium' },
        { token: TOKENS.spare },
      ],
    },
  });
  const start = (): Promise<RunningGateway> => startGateway(platforms(sim.openaiUrl), { store: { driver: 'sqlite', path: path.join(dir, 'gateway.db') } });
  const openai = (): OpenAI => new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/pool/v1`, maxRetries: 0 });

  async function view(): Promise<PoolRow[]> {
    const res = await fetch(`${gw.url}/admin/pools/pool`, { headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` } });
    expect(res.status).to.equal(200);
    return ((await res.json()) as { credentials: PoolRow[] }).credentials;
  }

  const tokensSeen = (): string[] => sim.requests.map((request) => String(request.headers.authorization).replace(/^Bearer /, ''));

  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'token-pool-e2e-'));
    sim = await startSimulator({ port: 0 });
    gw = await start();
  });
  after(async () => {
    await gw.close();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers every request although the pool holds a rate-limited, a quota-exhausted and a banned token', async () => {
    const client = openai();
    for (let i = 0; i < 6; i += 1) {
      const completion = await client.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: `hello ${i}` }] });
      expect(completion.choices[0].message.content).to.equal(`Echo: hello ${i}`);
    }
    const stream = await client.chat.completions.create({ model: 'gpt-4.1-mini', stream: true, messages: [{ role: 'user', content: 'stream me [sim:chunks=4]' }] });
    const pieces: string[] = [];
    for await (const chunk of stream) pieces.push(chunk.choices[0]?.delta.content ?? '');
    expect(pieces.join('')).to.equal('Echo: stream me');
    expect(tokensSeen()).to.include.members([TOKENS.limited, TOKENS.banned, TOKENS.quota, TOKENS.good]);
    expect(tokensSeen()).to.not.include(TOKENS.spare);
  });

  it('shows the marks in the admin view, masked', async () => {
    const rows = await view();
    const byMask = Object.fromEntries(rows.map((row) => [row.masked, row]));
    expect(rows.map((row) => row.masked)).to.deep.equal(['...0001', '...0002', '...0003', '...0004', '...0005']);
    expect(byMask['...0002']).to.include({ state: 'abnormal', inRotation: false, errors: 1, lastError: 'HTTP 401: Your account has been suspended' });
    expect(byMask['...0003']).to.include({ state: 'limit_marked', inRotation: true, errors: 1 });
    expect(Date.parse(byMask['...0003'].cooldownUntil!) - Date.now()).to.be.within(3_500_000, 3_600_000);
    // The simulator's rate limit asks for 1 s only, so its mark may already have expired; it stays in the set either way.
    expect(byMask['...0001']).to.include({ inRotation: true });
    expect(byMask['...0001'].errors).to.be.at.least(1);
    expect(byMask['...0001'].lastError).to.match(/^HTTP 429: Rate limit reached for requests/);
    expect(byMask['...0004']).to.include({ state: 'healthy', tier: 'premium', inRotation: true });
    expect(byMask['...0004'].requests).to.be.at.least(7);
    expect(byMask['...0005']).to.include({ state: 'healthy', inRotation: false, requests: 0 });
    expect(JSON.stringify(rows)).to.not.match(/sim-(limited|banned|quota|good)-token/);
  });

  it('keeps marks, counters and the rotation set across a restart on the same sqlite file', async () => {
    const before = await view();
    await gw.close();
    gw = await start();
    const after = await view();
    // The 1 s rate-limit mark of ...0001 may lapse during the restart; everything else must be exactly as before.
    const kept = (row: PoolRow) => ({ ...row, state: row.masked === '...0001' ? 'any' : row.state, cooldownUntil: row.masked === '...0001' ? 'any' : row.cooldownUntil });
    expect(after.map(kept)).to.deep.equal(before.map(kept));
    expect(after[2].cooldownUntil).to.equal(before[2].cooldownUntil);

    sim.reset();
    const completion = await openai().chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'after restart' }] });
    expect(completion.choices[0].message.content).to.equal('Echo: after restart');
    expect(tokensSeen()).to.not.include(TOKENS.banned);
    expect(tokensSeen()).to.not.include(TOKENS.quota);
  });

  it('serves a -max model on the premium token, and -thinking with reasoning switched on upstream', async () => {
    sim.reset();
    const completion = await openai().chat.completions.create({ model: 'gpt-4.1-max-thinking', messages: [{ role: 'user', content: 'deep [sim:thinking]' }] });
    expect(completion.choices[0].message.content).to.equal('Echo: deep');
    const seen = sim.requests.at(-1)!;
    expect(seen.headers.authorization).to.equal(`Bearer ${TOKENS.good}`);
    expect(seen.body).to.include({ model: 'gpt-4.1', reasoning_effort: 'high' });
  });

  it('forwards a plain chat body byte for byte', async () => {
    sim.reset();
    const body = '{"model":"gpt-4.1-mini",  "messages":[{"role":"user","content":"exact \\u00e9 bytes"}]}';
    const res = await fetch(`${gw.url}/pool/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json' },
      body,
    });
    expect(res.status).to.equal(200);
    expect(sim.requests.at(-1)!.rawBody.toString('utf8')).to.equal(body);
  });

  it('lists the models with their variants through the SDK', async () => {
    const ids: string[] = [];
    for await (const model of openai().models.list()) ids.push(model.id);
    expect(ids).to.include.members(['gpt-4.1-mini', 'gpt-4.1-mini-thinking', 'gpt-4.1-mini-max']);
  });

  it('answers the responses, messages and Gemini formats through the official SDKs', async () => {
    const response = await openai().responses.create({ model: 'gpt-4.1-mini', input: 'via responses' });
    expect(response.output_text).to.equal('Echo: via responses');

    const anthropic = new Anthropic({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/pool`, maxRetries: 0 });
    const message = await anthropic.messages.create({ model: 'gpt-4.1-mini', max_tokens: 64, messages: [{ role: 'user', content: 'via messages' }] });
    expect(message.content[0]).to.include({ type: 'text', text: 'Echo: via messages' });

    const google = new GoogleGenAI({ apiKey: TEST_LICENSE, httpOptions: { baseUrl: `${gw.url}/pool` } });
    const generated = await google.models.generateContent({ model: 'gpt-4.1-mini', contents: 'via gemini' });
    expect(generated.text).to.equal('Echo: via gemini');
  });
});
