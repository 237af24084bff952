import { expect } from 'chai';
import { blankRequestEchoes } from '../src/blank-request-echoes';

const body = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));

describe('token-pool blankRequestEchoes', () => {
  it('blanks the values and keys the request sent, whatever their case, and keeps the upstream\'s own words', () => {
    const text = blankRequestEchoes(
      '{"error":{"message":"The model `My-Suspended-Model` does not exist; Invalid key in \'logit_bias\': banned."}}',
      body({ model: 'my-suspended-model', logit_bias: { banned: 1 } }),
    );
    expect(text).to.not.match(/suspended|banned/);
    expect(text).to.contain('does not exist; invalid key in');
  });

  it('blanks a long prompt as a whole before the short values it contains', () => {
    const prompt = 'say: my account was banned';
    expect(blankRequestEchoes(`echo: ${prompt}!`, body({ messages: [{ role: 'user', content: prompt }], user: 'banned' }))).to.equal('echo:  !');
  });

  it('leaves strings shorter than 3 characters, and text when the body is absent or not JSON', () => {
    expect(blankRequestEchoes('Rate limit AB', body({ x: 'ab' }))).to.equal('rate limit ab');
    expect(blankRequestEchoes('Account Suspended', undefined)).to.equal('account suspended');
    expect(blankRequestEchoes('account suspended', Buffer.from('suspended'))).to.equal('account suspended');
  });
});
