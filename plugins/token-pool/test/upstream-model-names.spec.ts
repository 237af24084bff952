import { expect } from 'chai';
import { GatewayError, type RequestContext } from '@gateway/core';
import { createUpstreamModelNames, listContext } from '../src/upstream-model-names';
import { silentLog } from './pool-test-kit';

const ctx = {} as RequestContext;

function namesWith(answers: Array<string[] | Error>, clock = { now: 0 }) {
  const fetched: number[] = [];
  const names = createUpstreamModelNames({
    async fetch() {
      fetched.push(clock.now);
      const answer = answers.shift() ?? [];
      if (answer instanceof Error) throw answer;
      return answer;
    },
    extra: ['extra-thinking'],
    log: silentLog,
    maxAgeMs: 600_000,
    now: () => clock.now,
  });
  return { names, fetched, clock };
}

describe('token-pool upstream model names', () => {
  it('reads the list only for a name ending in a variant suffix, once for concurrent requests, then not until it is old', async () => {
    const { names, fetched, clock } = namesWith([['kimi-k2', 'kimi-k2-thinking'], ['kimi-k2']]);
    expect([...(await names.forModel('gpt-4.1', ctx))]).to.deep.equal(['extra-thinking']);
    expect(fetched).to.deep.equal([]);
    const [a, b] = await Promise.all([names.forModel('kimi-k2-thinking', ctx), names.forModel('gpt-4.1-max', ctx)]);
    expect(fetched).to.deep.equal([0]);
    expect(a).to.equal(b);
    expect([...a]).to.deep.equal(['kimi-k2', 'kimi-k2-thinking', 'extra-thinking']);
    clock.now = 599_999;
    await names.forModel('gpt-4.1-thinking', ctx);
    expect(fetched).to.have.length(1);
    // A name already known needs no fresh list, however old.
    clock.now = 700_000;
    expect((await names.forModel('kimi-k2-thinking', ctx)).has('kimi-k2-thinking')).to.equal(true);
    expect(fetched).to.have.length(1);
    expect((await names.forModel('gpt-4.1-thinking', ctx)).has('kimi-k2-thinking')).to.equal(false);
    expect(fetched).to.deep.equal([0, 700_000]);
  });

  it('keeps the names it had when a fetch fails, and asks again a minute later, not on every request', async () => {
    const { names, fetched, clock } = namesWith([new Error('upstream down'), ['m-thinking']]);
    expect([...(await names.forModel('m-thinking', ctx))]).to.deep.equal(['extra-thinking']);
    clock.now = 59_000;
    await names.forModel('m-thinking', ctx);
    expect(fetched).to.have.length(1);
    clock.now = 60_000;
    expect((await names.forModel('m-thinking', ctx)).has('m-thinking')).to.equal(true);
    expect(fetched).to.have.length(2);
  });

  it('after a 4xx (an upstream with no model list) waits a whole period before asking again', async () => {
    const { names, fetched, clock } = namesWith([new GatewayError('GW_NOT_FOUND', 'upstream answered HTTP 404'), ['m-thinking']]);
    await names.forModel('m-thinking', ctx);
    clock.now = 599_000;
    await names.forModel('m-thinking', ctx);
    expect(fetched).to.have.length(1);
    clock.now = 600_000;
    await names.forModel('m-thinking', ctx);
    expect(fetched).to.have.length(2);
  });

  it("after a rate limit (the pool's own 429, every token busy) asks again a minute later, not a whole period", async () => {
    const { names, fetched, clock } = namesWith([new GatewayError('GW_RATE_LIMITED', 'every token in the rotation set of pool "pool" is rate-limited; retry in 1s'), ['kimi-k2-thinking']]);
    await names.forModel('kimi-k2-thinking', ctx);
    clock.now = 60_000;
    expect((await names.forModel('kimi-k2-thinking', ctx)).has('kimi-k2-thinking')).to.equal(true);
    expect(fetched).to.have.length(2);
  });

  it('takes a list the models endpoint read as fresh', async () => {
    const { names, fetched } = namesWith([]);
    names.record(['o3-thinking']);
    expect((await names.forModel('o3-thinking-max', ctx)).has('o3-thinking')).to.equal(true);
    expect(fetched).to.deep.equal([]);
  });

  it('fetches with a context of its own: not the asking client\'s abort, model or scratch state', async () => {
    const client = new AbortController();
    const asking = { signal: client.signal, model: 'qwen-max', state: new Map([['credential', 'x']]), platform: 'pool' } as unknown as RequestContext;
    let seen: RequestContext | undefined;
    const names = createUpstreamModelNames({
      async fetch(ctx) {
        seen = ctx;
        client.abort();
        return ['qwen-max'];
      },
      extra: [],
      log: silentLog,
    });
    expect((await names.forModel('qwen-max', asking)).has('qwen-max')).to.equal(true);
    expect(seen?.signal.aborted).to.equal(false);
    expect(seen?.model).to.equal(undefined);
    expect(seen?.state.size).to.equal(0);
    expect(seen?.platform).to.equal('pool');
    expect(listContext(asking).signal).not.to.equal(client.signal);
  });
});
