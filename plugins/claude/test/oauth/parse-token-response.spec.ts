import { expect } from 'chai';
import { parseTokenResponse } from '../../src/oauth/parse-token-response';

describe('parseTokenResponse', () => {
  it('reads access token, refresh token, lifetime and organisation', () => {
    expect(parseTokenResponse({ access_token: 'a', refresh_token: 'r', expires_in: 60, organization: { uuid: 'o' } }, 1000)).to.deep.equal({
      accessToken: 'a', refreshToken: 'r', expiresAt: 61_000, obtainedAt: 1000, organizationUuid: 'o',
    });
  });
  it('keeps the previous refresh token and organisation when the answer has none, and assumes an hour', () => {
    expect(parseTokenResponse({ access_token: 'a' }, 0, { refreshToken: 'old', organizationUuid: 'o' })).to.deep.equal({ accessToken: 'a', refreshToken: 'old', expiresAt: 3_600_000, obtainedAt: 0, organizationUuid: 'o' });
  });
  it('believes a lifetime of at most 30 days, so an absurd expires_in still gives a date', () => {
    const tokens = parseTokenResponse({ access_token: 'a', expires_in: 1e13 }, 1000);
    expect(tokens?.expiresAt).to.equal(1000 + 30 * 24 * 3600 * 1000);
    expect(() => new Date(tokens!.expiresAt).toISOString()).to.not.throw();
  });
  it('answers undefined without an access token', () => {
    expect(parseTokenResponse({ error: 'invalid_grant' }, 0)).to.equal(undefined);
    expect(parseTokenResponse('nope', 0)).to.equal(undefined);
  });
});
