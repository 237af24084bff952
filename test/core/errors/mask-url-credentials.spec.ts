import { expect } from 'chai';
import { maskUrlCredentials } from '../../../core/errors/mask-url-credentials';

describe('maskUrlCredentials', () => {
  const cases: Array<[string, string]> = [
    ['http://gwuser:Sup3rSecretProxyPass@127.0.0.1:8080/openai', 'http://***@127.0.0.1:8080/openai'],
    ['https://token@proxy.example/v1?x=1', 'https://***@proxy.example/v1?x=1'],
    ['https://api.openai.com', 'https://api.openai.com'],
    ['https://api.example/path@with-at', 'https://api.example/path@with-at'],
    ['https://api.example/?q=a@b', 'https://api.example/?q=a@b'],
  ];
  for (const [url, shown] of cases) {
    it(`${url} → ${shown}`, () => expect(maskUrlCredentials(url)).to.equal(shown));
  }
});
