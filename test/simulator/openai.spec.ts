import { expect } from 'chai';
import OpenAI from 'openai';
import { startSimulator, type Simulator } from '../../simulator';
import { post } from './raw-client';

describe('simulator openai auth, token behaviours and models', () => {
  let sim: Simulator;

  before(async () => {
    sim = await startSimulator();
  });
  after(() => sim.close());

  const chat = (token?: string) =>
    post(`${sim.openaiUrl}/v1/chat/completions`, { model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'hi' }] }, token ? { authorization: `Bearer ${token}` } : {});

  it('answers 401 in the OpenAI envelope without a bearer token', async () => {
    const raw = await chat();
    expect(raw.status).to.equal(401);
    const body = JSON.parse(raw.text) as { error: Record<string, unknown> };
    expect(body.error).to.include({ type: 'invalid_request_error', param: null, code: null });
    expect(String(body.error.message)).to.include("You didn't provide an API key");
  });

  it('rate-limits a token containing "limited", with retry-after', async () => {
    const raw = await chat('sk-pool-limited-01');
    expect(raw.status).to.equal(429);
    expect(raw.headers.get('retry-after')).to.equal('1');
    const { error } = JSON.parse(raw.text) as { error: { message: string; type: string; code: string } };
    expect(error.message).to.include('Rate limit reached for requests');
    expect(error).to.include({ type: 'requests', code: 'rate_limit_exceeded' });
  });

  it('suspends a token containing "banned"', async () => {
    const raw = await chat('sk-pool-banned-01');
    expect(raw.status).to.equal(401);
    expect(JSON.parse(raw.text)).to.deep.equal({
      error: { message: 'Your account has been suspended', type: 'invalid_request_error', param: null, code: 'account_deactivated' },
    });
  });

  it('answers insufficient_quota for a token containing "quota", without retry-after', async () => {
    const raw = await chat('sk-pool-quota-01');
    expect(raw.status).to.equal(429);
    expect(raw.headers.get('retry-after')).to.equal(null);
    expect(JSON.parse(raw.text).error).to.include({ type: 'insufficient_quota', code: 'insufficient_quota' });
  });

  it('lists models in the OpenAI list shape', async () => {
    const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${sim.openaiUrl}/v1`, maxRetries: 0 });
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).to.include('gpt-4.1-mini');
    const one = await client.models.retrieve('gpt-4.1-mini');
    expect(one).to.deep.include({ id: 'gpt-4.1-mini', object: 'model', owned_by: 'system' });
  });

  it('answers 404 for an unknown path and 400 for a body that is not JSON', async () => {
    const unknown = await post(`${sim.openaiUrl}/v1/nothing`, {}, { authorization: 'Bearer k' });
    expect(unknown.status).to.equal(404);
    expect(JSON.parse(unknown.text).error.message).to.include('/v1/nothing');
    const broken = await fetch(`${sim.openaiUrl}/v1/chat/completions`, { method: 'POST', headers: { authorization: 'Bearer k' }, body: '{nope' });
    expect(broken.status).to.equal(400);
  });
});
