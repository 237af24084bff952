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
  it('answers undefined without an access token', () => {
    expect(parseTokenResponse({ error: 'invalid_grant' }, 0)).to.equal(undefined);
    expect(parseTokenResponse('nope', 0)).to.equal(undefined);
  });
});
