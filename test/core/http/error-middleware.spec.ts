import net from 'node:net';
import { expect } from 'chai';
import { startGateway } from '../../helpers/start-gateway';

describe('an answer given before the body was read', () => {
  it('closes the connection instead of reading a slow upload to its end (a refused license)', async () => {
    const gw = await startGateway({ openai: { plugin: 'openai', baseUrl: 'http://127.0.0.1:9', credentials: [{ apiKey: 'sk-test-0123456789abcdef' }] } });
    try {
      const socket = net.connect(Number(new URL(gw.url).port), '127.0.0.1');
      let answer = '';
      socket.on('data', (data: Buffer) => (answer += data.toString()));
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      socket.write('POST /openai/v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n{');
      // One byte every 100 ms: the 100 KB would take hours.
      const drip = setInterval(() => socket.writable && socket.write('x'), 100);
      await closed;
      clearInterval(drip);
      expect(answer).to.match(/^HTTP\/1\.1 401 /);
      expect(answer).to.match(/\r\nconnection: close\r\n/i);
    } finally {
      await gw.close();
    }
  });
});
