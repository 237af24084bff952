import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { expect } from 'chai';
import type { CustomHandler, RequestContext } from '../../../core/hooks/plugin-api';
import { runCustom } from '../../../core/pipeline/run-custom';

const warnings: string[] = [];
const CONTEXT = { log: { warn: (message: string) => warnings.push(message), debug() {} } } as unknown as RequestContext;

/** Serves one custom handler through runCustom and fetches it: what the client got, and whether it ended cleanly. */
async function fetchThrough(handle: CustomHandler, method = 'GET'): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string; clean: boolean }> {
  const server = http.createServer((_req, res) => void runCustom(handle, { body: {}, files: [] }, CONTEXT, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await new Promise((resolve, reject) => {
      const req = http.request(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { agent: false, method }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        const done = (clean: boolean) => () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, clean });
        res.on('end', done(true));
        res.on('aborted', done(false));
        res.on('error', done(false));
      });
      req.on('error', reject);
      req.end();
    });
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

describe('runCustom', () => {
  beforeEach(() => {
    warnings.length = 0;
  });

  it('sends a JSON answer with its length', async () => {
    const answer = await fetchThrough(async () => ({ status: 200, json: { data: ['é'] }, headers: { 'x-upstream': '1' } }));
    expect(answer.body).to.equal('{"data":["é"]}');
    expect(answer.headers['content-length']).to.equal(String(Buffer.byteLength('{"data":["é"]}')));
    expect(answer.headers['x-upstream']).to.equal('1');
  });

  it('pipes a byte stream with its status and headers, chunk after chunk', async () => {
    const chunks = ['first ', 'second ', 'third'];
    const answer = await fetchThrough(async () => ({ status: 206, stream: Readable.from(chunks.map((c) => Buffer.from(c))), headers: { 'content-type': 'video/mp4' } }));
    expect(answer).to.include({ status: 206, body: chunks.join(''), clean: true });
    expect(answer.headers['content-type']).to.equal('video/mp4');
  });

  it('answers HEAD with the headers at once and stops reading the stream (a video is not fetched to be discarded)', async () => {
    let reads = 0;
    const endless = new Readable({
      read() {
        reads += 1;
        setTimeout(() => this.push(Buffer.alloc(64 * 1024)), 5);
      },
    });
    const answer = await fetchThrough(async () => ({ status: 200, stream: endless, headers: { 'content-type': 'video/mp4', 'content-length': '1073741824' } }), 'HEAD');
    expect(answer).to.include({ status: 200, body: '', clean: true });
    expect(answer.headers['content-length']).to.equal('1073741824');
    expect(endless.destroyed).to.equal(true);
    expect(reads).to.be.at.most(1);
  });

  it('drops the connection when the stream breaks off, so a download cut short does not look complete', async () => {
    const broken = new Readable({ read() {} });
    broken.push('partial video bytes');
    setTimeout(() => broken.destroy(new Error('upstream connection lost')), 20);
    const answer = await fetchThrough(async () => ({ status: 200, stream: broken, headers: { 'content-type': 'video/mp4' } }));
    expect(answer.body).to.equal('partial video bytes');
    expect(answer.clean).to.equal(false);
    expect(warnings).to.deep.equal(['answer stream failed']);
  });
});
