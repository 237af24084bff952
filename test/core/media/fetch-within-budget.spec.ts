import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { isGatewayError } from '../../../core/errors/gateway-error';
import { fetchWithinBudget, mapConcurrently, mediaBudget } from '../../../core/media/fetch-within-budget';

describe('fetchWithinBudget', () => {
  let server: http.Server;
  let url = '';
  let gets = 0;
  before(async () => {
    // Each image after 150 ms.
    server = http.createServer((_req, res) => {
      gets += 1;
      setTimeout(() => res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(16)), 150);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/a.png`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it("ends a request's downloads together at media.timeoutMs from the first, each within its own timeout", async () => {
    const media = { maxBytes: 1024 * 1024, timeoutMs: 400, allowPrivateAddresses: true };
    const budget = mediaBudget(media);
    const urls = Array.from({ length: 40 }, (_, i) => `${url}?${i}`);
    const error = await mapConcurrently(urls, new AbortController().signal, (item, index, signal) => fetchWithinBudget(item, `images[${index}]`, media, budget, signal)).then(
      () => undefined,
      (e: unknown) => e,
    );
    // 40 downloads of 150 ms, four at a time, take 1.5 s: the budget of 400 ms ends them before the last.
    expect(isGatewayError(error) && error.code).to.equal('GW_INVALID_REQUEST');
    expect(gets).to.be.within(4, 39);
  });
});
