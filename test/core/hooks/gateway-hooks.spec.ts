import { expect } from 'chai';
import { createGatewayHooks, Stage, type RequestContext, type StreamStage } from '@gateway/core';

const ctx = {} as RequestContext;

describe('createGatewayHooks', () => {
  it('exposes exactly the six hooks, frozen', () => {
    const hooks = createGatewayHooks();
    expect(Object.keys(hooks).sort()).to.deep.equal(['auth', 'errorClassify', 'requestTransform', 'route', 'streamTransform', 'upstreamCall']);
    expect(Object.isFrozen(hooks)).to.equal(true);
  });

  it('keeps per-platform taps apart: a route tapped for one key is invisible to another', () => {
    const hooks = createGatewayHooks();
    hooks.route.for('a').tap('test', () => ({ mode: 'passthrough', format: 'chat-completions' }));
    expect(hooks.route.get('a')?.call({ endpoint: 'chat.completions', stream: false }, ctx)).to.deep.equal({ mode: 'passthrough', format: 'chat-completions' });
    expect(hooks.route.get('b')).to.equal(undefined);
  });

  it('orders taps by stage, not by registration', async () => {
    const hooks = createGatewayHooks();
    const order: string[] = [];
    hooks.requestTransform.for('p').tapPromise({ name: 'late', stage: Stage.AFTER_PLATFORM }, async (request) => { order.push('late'); return request; });
    hooks.requestTransform.for('p').tapPromise({ name: 'early', stage: Stage.BEFORE_PLATFORM }, async (request) => { order.push('early'); return request; });
    await hooks.requestTransform.get('p')!.promise({ mode: 'translate', format: 'messages', method: 'POST', path: '/', headers: {}, stream: false }, ctx);
    expect(order).to.deep.equal(['early', 'late']);
  });

  it('auth bails at the first tap that recognises the caller', async () => {
    const hooks = createGatewayHooks();
    hooks.auth.tapPromise({ name: 'no', stage: Stage.PLATFORM }, async () => undefined);
    hooks.auth.tapPromise({ name: 'yes', stage: Stage.CORE_FALLBACK }, async () => ({ kind: 'license', id: 'x' }));
    expect(await hooks.auth.promise({ path: '/', headers: {}, query: {} }, ctx)).to.deep.equal({ kind: 'license', id: 'x' });
  });

  it('streamTransform assembles stages as a waterfall', () => {
    const hooks = createGatewayHooks();
    const stage: StreamStage = { name: 's', event: (event) => [event] };
    hooks.streamTransform.for('p').tap('one', (stages) => [...stages, stage]);
    hooks.streamTransform.for('p').tap('two', (stages) => [...stages, stage]);
    expect(hooks.streamTransform.get('p')!.call([], ctx)).to.have.length(2);
  });
});
