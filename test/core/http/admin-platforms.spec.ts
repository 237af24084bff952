import { expect } from 'chai';
import { startGateway, TEST_ADMIN_KEY, type RunningGateway } from '../../helpers/start-gateway';

describe('GET /admin/platforms', () => {
  let gw: RunningGateway;
  before(async () => {
    gw = await startGateway({ openai: { plugin: 'openai', baseUrl: 'http://gwuser:Sup3rSecretProxyPass@openai.upstream.test/openai', credentials: [{ apiKey: 'sk-upstream-000000000001' }] } });
  });
  after(() => gw.close());

  it('shows each baseUrl with its userinfo masked', async () => {
    const res = await fetch(`${gw.url}/admin/platforms`, { headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` } });
    const text = await res.text();
    expect(text).not.to.include('Sup3rSecretProxyPass').and.not.to.include('gwuser');
    expect((JSON.parse(text) as { platforms: Array<{ baseUrl: string }> }).platforms[0].baseUrl).to.equal('http://***@openai.upstream.test/openai');
  });
});
