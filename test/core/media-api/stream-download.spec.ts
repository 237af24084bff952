import { Readable } from 'node:stream';
import { expect } from 'chai';
import { isGatewayError } from '../../../core/errors/gateway-error';
import type { RequestContext, UpstreamResponse } from '../../../core/hooks/plugin-api';
import { downloadRequestHeaders, followDownloadRedirects, downloadResultOf } from '../../../core/media-api/stream-download';
import type { UpstreamHttpRequest } from '../../../core/upstream/upstream-client';

const TIMEOUTS = { connectMs: 1000, totalMs: 1000, idleMs: 1000 };

function answer(status: number, headers: Record<string, string> = {}, body = ''): UpstreamResponse {
  return { status, headers, body: Readable.from([Buffer.from(body)]) };
}

function context(sent: UpstreamHttpRequest[], replies: UpstreamResponse[]): RequestContext {
  const upstream = {
    async send(req: UpstreamHttpRequest) {
      sent.push(req);
      const reply = replies.shift() ?? answer(500);
      return { ...reply, latencyMs: 1 };
    },
    close() {},
  };
  return { upstream, signal: new AbortController().signal } as unknown as RequestContext;
}

describe('stream-download', () => {
  it('passes the client\'s ranges and validators, never its credentials', () => {
    expect(downloadRequestHeaders({ range: 'bytes=0-9', 'if-none-match': '"e"', authorization: 'Bearer lic', cookie: 'c' }, 'application/binary')).to.deep.equal({
      accept: 'application/binary',
      range: 'bytes=0-9',
      'if-none-match': '"e"',
    });
  });

  it('follows a redirect within the upstream through sameOrigin, and one elsewhere without credentials', async () => {
    const sent: UpstreamHttpRequest[] = [];
    const ctx = context(sent, [answer(206, { 'content-range': 'bytes 0-0/1' }, 'x')]);
    const own: string[] = [];
    const result = await followDownloadRedirects(answer(302, { location: '/v1/files/2' }), {
      url: new URL('https://api.example/v1/videos/1/content'),
      ctx,
      timeouts: TIMEOUTS,
      headers: { accept: 'video/mp4', range: 'bytes=0-0' },
      sameOrigin: (url) => {
        if (url.origin !== 'https://api.example') return undefined;
        own.push(url.toString());
        return Promise.resolve(answer(307, { location: 'https://storage.example/v.mp4?sig=1' }));
      },
    });
    expect(own).to.deep.equal(['https://api.example/v1/files/2']);
    expect(sent.map((req) => [req.url, req.headers])).to.deep.equal([['https://storage.example/v.mp4?sig=1', { accept: 'video/mp4', range: 'bytes=0-0' }]]);
    expect(result.status).to.equal(206);
  });

  it('answers a 304 as it is', async () => {
    const result = await followDownloadRedirects(answer(304), { url: new URL('https://api.example/x'), ctx: context([], []), timeouts: TIMEOUTS, headers: {}, sameOrigin: () => undefined });
    expect(result.status).to.equal(304);
  });

  it('stops after three redirects with a 502', async () => {
    const loop = () => answer(302, { location: 'https://storage.example/again' });
    const error = await followDownloadRedirects(loop(), {
      url: new URL('https://api.example/x'),
      ctx: context([], [loop(), loop(), loop()]),
      timeouts: TIMEOUTS,
      headers: {},
      sameOrigin: () => undefined,
    }).catch((e: unknown) => e);
    expect(isGatewayError(error) && error.status).to.equal(502);
  });

  it('keeps only the content headers of the answer, and its status', () => {
    const result = downloadResultOf(answer(206, { 'content-type': 'video/mp4', 'content-length': '1', 'content-range': 'bytes 0-0/9', 'set-cookie': 'x', server: 'y' }));
    expect(result.status).to.equal(206);
    expect('headers' in result && result.headers).to.deep.equal({ 'content-type': 'video/mp4', 'content-length': '1', 'content-range': 'bytes 0-0/9' });
  });
});
