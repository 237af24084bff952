import { expect } from 'chai';
import { tapLicenseAuth } from '../../../core/auth/tap-license-auth';
import { credentialId } from '../../../core/credentials/credential-id';
import { createGatewayHooks } from '../../../core/hooks/gateway-hooks';
import type { RequestContext } from '../../../core/hooks/plugin-api';

const LICENSE = 'lic-0123456789abcdef';

function authWith(licenses: string[]) {
  const hooks = createGatewayHooks();
  tapLicenseAuth(hooks, licenses);
  return (headers: Record<string, string>, query: Record<string, string> = {}, path = '/openai/v1/chat/completions') =>
    hooks.auth.promise({ path, headers, query }, {} as RequestContext);
}

describe('tapLicenseAuth', () => {
  it('accepts a configured license in every form, named in the principal by a digest (no part of it), the same principal each time', async () => {
    const auth = authWith(['other-license-000000', LICENSE]);
    const first = await auth({ authorization: `Bearer ${LICENSE}` });
    expect(first).to.deep.equal({ kind: 'license', id: credentialId(LICENSE) });
    expect(first?.id).to.match(/^[0-9a-f]{12}$/);
    expect(Object.isFrozen(first)).to.equal(true);
    expect(await auth({ 'x-api-key': LICENSE })).to.equal(first);
    expect(await auth({}, { key: LICENSE }, '/gemini/v1beta/models')).to.equal(first);
    expect(await auth({}, { key: LICENSE }), '?key= outside /v1beta').to.equal(undefined);
  });

  it('refuses unknown keys before and after a license was accepted, prefixes and extensions included', async () => {
    const auth = authWith([LICENSE]);
    for (const key of ['nope-0123456789abcdef', LICENSE.slice(0, -1), `${LICENSE}0`, LICENSE.toUpperCase()]) {
      expect(await auth({ authorization: `Bearer ${key}` })).to.equal(undefined);
    }
    expect(await auth({ authorization: `Bearer ${LICENSE}` })).to.include({ kind: 'license' });
    for (const key of ['nope-0123456789abcdef', LICENSE.slice(0, -1), `${LICENSE}0`, '']) {
      expect(await auth({ authorization: `Bearer ${key}` })).to.equal(undefined);
    }
    expect(await auth({})).to.equal(undefined);
  });

  it('accepts nothing when no license is configured', async () => {
    expect(await authWith([])({ authorization: `Bearer ${LICENSE}` })).to.equal(undefined);
  });
});
