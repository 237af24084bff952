import { Readable } from 'node:stream';
import { expect } from 'chai';
import type { RequestContext, UpstreamRequest } from '../../../core/hooks/plugin-api';
import { sendUpstreamRequest } from '../../../core/upstream/send-upstream-request';
import type { UpstreamHttpRequest } from '../../../core/upstream/upstream-client';
import { extraHiddenClasses, skipUnlessMapsComparable } from '../../helpers/hidden-class';

/** A context whose upstream client records what it was asked to send. */
function recordingContext(): { ctx: RequestContext; sent: UpstreamHttpRequest[] } {
  const sent: UpstreamHttpRequest[] = [];
  const upstream = {
    send: async (req: UpstreamHttpRequest) => {
      sent.push(req);
      return { status: 200, headers: {}, body: Readable.from([]), latencyMs: 1 };
    },
    close() {},
  };
  return { ctx: { upstream, signal: new AbortController().signal } as unknown as RequestContext, sent };
}

const PLATFORM = { baseUrl: 'http://upstream.test', timeouts: { connectMs: 1000, totalMs: 2000, idleMs: 1000 } };
const REQUEST: UpstreamRequest = { mode: 'passthrough', format: 'chat-completions', method: 'POST', path: '/v1/chat/completions', headers: { 'x-client': 'a', authorization: 'Bearer client' }, stream: false };

describe('sendUpstreamRequest', () => {
  it('sends the raw body when there is one, with the credential headers over the request headers', async () => {
    const { ctx, sent } = recordingContext();
    const body = Buffer.from('{"model":"m"}');
    await sendUpstreamRequest({ ...REQUEST, body, json: { model: 'other' } }, ctx, PLATFORM, { authorization: 'Bearer sk-upstream' });
    expect(sent[0].url).to.equal('http://upstream.test/v1/chat/completions');
    expect(sent[0].body).to.equal(body);
    expect(sent[0].headers).to.deep.equal({ 'x-client': 'a', authorization: 'Bearer sk-upstream', 'content-type': 'application/json' });
  });

  it('refuses a path with a "." or ".." segment, plain or percent-encoded (URL parsing would step up the path), and nothing else', async () => {
    const { ctx, sent } = recordingContext();
    for (const path of ['/v1/videos/..', '/v1/videos/%2E%2E/content', '/v1/./x', '/v1/%2e?x=1', '/v1beta/models/x/operations/..#f', '/v1beta/models/..\\..\\v1beta\\cachedContents:generateContent']) {
      const error = await sendUpstreamRequest({ ...REQUEST, path }, ctx, PLATFORM, {}).catch((e: unknown) => e);
      expect(error, path).to.include({ code: 'GW_NOT_FOUND' });
    }
    expect(sent).to.have.length(0);
    for (const path of ['/v1/a..b', '/v1/..x/y', '/v1/x.y', '/v1/videos/video_1?variant=/..', '/v1beta/models/gemini-2.5-pro:generateContent?alt=sse']) {
      await sendUpstreamRequest({ ...REQUEST, path }, ctx, PLATFORM, {});
    }
    expect(sent).to.have.length(5);
  });

  it('serializes json when there is no body, keeping a content type the request set', async () => {
    const { ctx, sent } = recordingContext();
    await sendUpstreamRequest({ ...REQUEST, headers: { 'Content-Type': 'application/json; charset=utf-8' }, json: { model: 'm' } }, ctx, PLATFORM, {});
    expect(sent[0].body?.toString('utf8')).to.equal('{"model":"m"}');
    expect(sent[0].headers).to.deep.equal({ 'Content-Type': 'application/json; charset=utf-8' });
  });

  it('gives the headers of every call one hidden class (no per-request shapes on the hot path)', async function () {
    const { ctx, sent } = recordingContext();
    for (let i = 0; i < 20; i += 1) {
      await sendUpstreamRequest({ ...REQUEST, headers: { 'x-client': String(i), accept: 'application/json' }, body: Buffer.from('{}') }, ctx, PLATFORM, { authorization: `Bearer sk-${i}` });
    }
    skipUnlessMapsComparable(this, sent[0].headers);
    expect(extraHiddenClasses(sent.map((req) => req.headers))).to.equal(0);
  });
});
