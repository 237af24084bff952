import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { startSimulator, type Simulator } from '../../simulator';
import { post } from './raw-client';

const SESSION = 'sk-ant-sid01-simulator-test-session';
const CLIENT_ID = '9d1c250a-e61b-44d9-88ed-5944d1962f5e';
const REDIRECT = 'https://platform.claude.com/oauth/code/callback';
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url');

interface Tokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

describe('simulator claude.ai OAuth', () => {
  let sim: Simulator;
  before(async () => {
    sim = await startSimulator({ oauthTokenTtlSeconds: 120 });
  });
  after(() => sim.close());
  beforeEach(() => sim.reset());

  const cookie = (key: string) => ({ cookie: `sessionKey=${key}` });

  async function chatOrganization(key = SESSION): Promise<string> {
    const res = await fetch(`${sim.claudeAiUrl}/api/organizations`, { headers: cookie(key) });
    const orgs = (await res.json()) as Array<{ uuid: string; capabilities: string[] }>;
    return orgs.find((org) => org.capabilities.includes('chat'))!.uuid;
  }

  async function authorize(org: string, key = SESSION, state = 'state-1'): Promise<string> {
    const res = await post(`${sim.claudeAiUrl}/v1/oauth/${org}/authorize`, {
      response_type: 'code', client_id: CLIENT_ID, organization_uuid: org, redirect_uri: REDIRECT, scope: 'user:profile user:inference',
      state, code_challenge: CHALLENGE, code_challenge_method: 'S256',
    }, cookie(key));
    expect(res.status).to.equal(200);
    const redirect = new URL((JSON.parse(res.text) as { redirect_uri: string }).redirect_uri);
    expect(redirect.searchParams.get('state')).to.equal(state);
    return redirect.searchParams.get('code')!;
  }

  async function exchange(key = SESSION): Promise<Tokens> {
    const code = await authorize(await chatOrganization(key), key);
    const res = await post(`${sim.claudeAiUrl}/v1/oauth/token`, { grant_type: 'authorization_code', code, code_verifier: VERIFIER, client_id: CLIENT_ID, redirect_uri: REDIRECT, state: 'state-1' });
    expect(res.status).to.equal(200);
    return JSON.parse(res.text) as Tokens;
  }

  function callApi(token: string, beta = 'oauth-2025-04-20') {
    return post(`${sim.anthropicUrl}/v1/messages`, { model: 'claude-sonnet-4-6', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }, {
      authorization: `Bearer ${token}`, 'anthropic-version': '2023-06-01', ...(beta ? { 'anthropic-beta': beta } : {}),
    });
  }

  it('lists an API organisation and a chat organisation for a session cookie', async () => {
    const res = await fetch(`${sim.claudeAiUrl}/api/organizations`, { headers: cookie(SESSION) });
    const orgs = (await res.json()) as Array<{ capabilities: string[] }>;
    expect(orgs.map((org) => org.capabilities)).to.deep.equal([['api'], ['chat', 'claude_pro']]);
    expect(sim.requests[0]).to.deep.include({ vendor: 'claude-ai', method: 'GET', path: '/api/organizations' });
  });

  it('refuses a missing, an invalid and a challenged session key', async () => {
    expect((await fetch(`${sim.claudeAiUrl}/api/organizations`)).status).to.equal(401);
    const invalid = await fetch(`${sim.claudeAiUrl}/api/organizations`, { headers: cookie('sk-ant-sid01-invalid-x') });
    expect(invalid.status).to.equal(403);
    expect(await invalid.json()).to.deep.equal({ type: 'error', error: { type: 'permission_error', message: 'Invalid authorization' } });
    const challenge = await fetch(`${sim.claudeAiUrl}/api/organizations`, { headers: cookie('sk-ant-sid01-challenge-x') });
    expect(challenge.status).to.equal(403);
    expect(challenge.headers.get('content-type')).to.match(/text\/html/);
    expect(await challenge.text()).to.include('Just a moment');
  });

  it('authorize refuses another session’s organisation and incomplete bodies', async () => {
    const other = await chatOrganization('sk-ant-sid01-someone-else');
    const foreign = await post(`${sim.claudeAiUrl}/v1/oauth/${other}/authorize`, {
      response_type: 'code', client_id: CLIENT_ID, redirect_uri: REDIRECT, scope: 's', state: 's', code_challenge: CHALLENGE, code_challenge_method: 'S256',
    }, cookie(SESSION));
    expect(foreign.status).to.equal(403);
    const incomplete = await post(`${sim.claudeAiUrl}/v1/oauth/${await chatOrganization()}/authorize`, { response_type: 'code' }, cookie(SESSION));
    expect(incomplete.status).to.equal(400);
  });

  it('exchanges a code once, only with the right PKCE verifier', async () => {
    const code = await authorize(await chatOrganization());
    const grant = { grant_type: 'authorization_code', code, client_id: CLIENT_ID, redirect_uri: REDIRECT, state: 'state-1' };
    const wrong = await post(`${sim.claudeAiUrl}/v1/oauth/token`, { ...grant, code_verifier: 'not-the-verifier' });
    expect(wrong.status).to.equal(400);
    expect(JSON.parse(wrong.text)).to.include({ error: 'invalid_grant' });

    const code2 = await authorize(await chatOrganization());
    const ok = await post(`${sim.claudeAiUrl}/v1/oauth/token`, { ...grant, code: code2, code_verifier: VERIFIER });
    const tokens = JSON.parse(ok.text) as Tokens;
    expect(tokens.expires_in).to.equal(120);
    expect(tokens.access_token).to.match(/^sk-ant-oat01-/);
    const again = await post(`${sim.claudeAiUrl}/v1/oauth/token`, { ...grant, code: code2, code_verifier: VERIFIER });
    expect(again.status).to.equal(400);
  });

  it('rotates refresh tokens: a used refresh token stops working', async () => {
    const tokens = await exchange();
    const refresh = { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: CLIENT_ID };
    const first = await post(`${sim.claudeAiUrl}/v1/oauth/token`, refresh);
    expect(first.status).to.equal(200);
    expect((JSON.parse(first.text) as Tokens).access_token).not.to.equal(tokens.access_token);
    expect((await post(`${sim.claudeAiUrl}/v1/oauth/token`, refresh)).status).to.equal(400);
  });

  it('the Anthropic API takes the access token only with the oauth beta, and refuses it once expired', async () => {
    const tokens = await exchange();
    const withoutBeta = await callApi(tokens.access_token, '');
    expect(withoutBeta.status).to.equal(401);
    expect(withoutBeta.text).to.include('OAuth authentication is currently not supported.');
    const ok = await callApi(tokens.access_token, 'interleaved-thinking-2025-05-14,oauth-2025-04-20');
    expect(ok.status).to.equal(200);
    expect(JSON.parse(ok.text)).to.deep.include({ content: [{ type: 'text', text: 'Echo: hi' }] });

    sim.claudeAi.expireAccessTokens();
    const expired = await callApi(tokens.access_token);
    expect(expired.status).to.equal(401);
    expect(JSON.parse(expired.text)).to.deep.equal({ type: 'error', error: { type: 'authentication_error', message: 'OAuth token has expired. Please obtain a new token or refresh your existing token.' } });
    expect((await callApi('sk-ant-oat01-sim999999-AA')).status).to.equal(401);
  });

  it('tokens of a session key marked limited are rate-limited by the API', async () => {
    const tokens = await exchange('sk-ant-sid01-limited-session');
    expect((await callApi(tokens.access_token)).status).to.equal(429);
  });
});
