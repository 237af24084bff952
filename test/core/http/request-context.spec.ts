import { expect } from 'chai';
import { EventEmitter } from 'node:events';
import type { Request, Response } from 'express';
import { abortSourceOf, createRequestContext } from '../../../core/http/request-context';
import type { GatewayRuntime } from '../../../core/http/gateway-runtime';
import { detachContext } from '../../../core/tasks/create-image-task-runner';

function fakeExchange(url = '/openai/v1/chat/completions?alt=sse&key=k1&key=k2'): { req: Request; res: Response & EventEmitter & { writableFinished: boolean } } {
  const req = { url, headers: { 'x-a': '1' }, query: { alt: 'sse', key: ['k1', 'k2'] } } as unknown as Request;
  const res = Object.assign(new EventEmitter(), { locals: { requestId: 'req-1' }, writableFinished: false });
  return { req, res: res as unknown as Response & EventEmitter & { writableFinished: boolean } };
}

const runtime = { log: { child: (meta: object) => ({ meta }) }, store: {}, upstream: {} } as unknown as GatewayRuntime;
const place = { platform: 'openai', endpoint: 'chat.completions' as const, params: {} };

describe('createRequestContext', () => {
  it('carries the request id, the first value of each query key, and a log bound to both ids', () => {
    const { req, res } = fakeExchange();
    const ctx = createRequestContext(req, res, runtime, place);
    expect(ctx.requestId).to.equal('req-1');
    expect(ctx.query).to.deep.equal({ alt: 'sse', key: 'k1' });
    expect(ctx.log).to.deep.equal({ meta: { requestId: 'req-1', platform: 'openai' } });
    expect(ctx.stream).to.equal(false);
  });

  it('has an empty query when the request target has none, without asking Express to parse one', () => {
    const { req, res } = fakeExchange('/openai/v1/chat/completions');
    Object.defineProperty(req, 'query', { get: () => expect.fail('req.query parsed for a target without a query') });
    expect(createRequestContext(req, res, runtime, place).query).to.deep.equal({});
  });

  it('aborts its source and its signal when the client goes away before the answer ended', () => {
    const { req, res } = fakeExchange();
    const ctx = createRequestContext(req, res, runtime, place);
    const source = abortSourceOf(ctx);
    let heard = 0;
    source.addEventListener('abort', () => (heard += 1));
    res.emit('close');
    expect(source.aborted).to.equal(true);
    expect(heard).to.equal(1);
    expect(ctx.signal.aborted).to.equal(true);
  });

  it('does not abort when the connection closes after the answer finished', () => {
    const { req, res } = fakeExchange();
    const ctx = createRequestContext(req, res, runtime, place);
    const { signal } = ctx;
    res.writableFinished = true;
    res.emit('close');
    expect(abortSourceOf(ctx).aborted).to.equal(false);
    expect(signal.aborted).to.equal(false);
  });

  it('makes its child logger only when asked, once', () => {
    const { req, res } = fakeExchange();
    let made = 0;
    const counting = { ...runtime, log: { child: (meta: object) => ((made += 1), { meta }) } } as unknown as GatewayRuntime;
    const ctx = createRequestContext(req, res, counting, place);
    expect(made).to.equal(0);
    expect(ctx.log).to.equal(ctx.log);
    expect(made).to.equal(1);
  });

  it('lets a detached context follow its own signal, not the client', () => {
    const { req, res } = fakeExchange();
    const ctx = createRequestContext(req, res, runtime, place);
    const task = new AbortController();
    const detached = detachContext(ctx, task.signal);
    expect(detached.requestId).to.equal('req-1');
    expect(detached.log).to.deep.equal({ meta: { requestId: 'req-1', platform: 'openai' } });
    expect(abortSourceOf(detached)).to.equal(task.signal);
    res.emit('close');
    expect(task.signal.aborted).to.equal(false);
  });
});
