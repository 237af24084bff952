import net from 'node:net';
import { expect } from 'chai';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../../helpers/start-gateway';
import { startRawUpstream, type RawUpstream } from '../../helpers/start-raw-upstream';

/** One raw HTTP/1.1 exchange, the request target written as given. */
function rawRequest(url: string, target: string, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(new URL(url).port), '127.0.0.1');
    let answer = '';
    socket.on('data', (data: Buffer) => (answer += data.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
    socket.write(
      `POST ${target} HTTP/1.1\r\nhost: gateway\r\nauthorization: Bearer ${TEST_LICENSE}\r\ncontent-type: application/json\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
}

describe('the path a passthrough sends upstream', () => {
  let upstream: RawUpstream;
  let attacker: RawUpstream;
  let gw: RunningGateway;
  const seenByUpstream: string[] = [];
  const seenByAttacker: string[] = [];
  before(async () => {
    upstream = await startRawUpstream();
    attacker = await startRawUpstream();
    upstream.handle((req, res) => {
      seenByUpstream.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
    attacker.handle((req, res) => {
      seenByAttacker.push(JSON.stringify(req.headers));
      res.end('{"stolen":true}');
    });
    gw = await startGateway({ openai: { plugin: 'openai', baseUrl: upstream.url, credentials: [{ apiKey: 'sk-test-0123456789abcdef' }] } });
  });
  after(async () => {
    await gw.close();
    await upstream.close();
    await attacker.close();
  });

  it('stays on the platform\'s host for an absolute-form target, whose "@host" once took the key elsewhere', async () => {
    const attackerHost = new URL(attacker.url).host;
    const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    const answer = await rawRequest(gw.url, `http://xxx@${attackerHost}/openai/v1/chat/completions?a=1`, body);
    expect(answer).to.match(/^HTTP\/1\.1 200 /);
    expect(seenByAttacker).to.deep.equal([]);
    expect(seenByUpstream.at(-1)).to.equal('/v1/chat/completions?a=1');
  });

  it('cuts a percent-encoded platform segment at its slash, not by its decoded length', async () => {
    const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    const answer = await rawRequest(gw.url, '/%6Fpenai/v1/chat/completions', body);
    expect(answer).to.match(/^HTTP\/1\.1 200 /);
    expect(seenByUpstream.at(-1)).to.equal('/v1/chat/completions');
  });
});
