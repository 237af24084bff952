import { expect } from 'chai';
import nock from 'nock';
import { fixtureBytes } from '../../../test/helpers/fixtures';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../../../test/helpers/start-gateway';

const UPSTREAM = 'http://responses.upstream.test';
const KEY_A = 'sk-proj-A-000000000000000001';
const KEY_B = 'sk-proj-B-000000000000000002';
const NOT_FOUND = { error: { message: "Previous response with id 'resp_1' not found.", type: 'invalid_request_error', param: 'previous_response_id', code: 'previous_response_not_found' } };

describe('openai plugin: a Responses request that continues a stored response', () => {
  let gw: RunningGateway;
  beforeEach(async () => {
    gw = await startGateway({ openai: { plugin: 'openai', baseUrl: UPSTREAM, credentials: [{ apiKey: KEY_A }, { apiKey: KEY_B }] } });
  });
  afterEach(() => gw.close());

  const ask = (body: Record<string, unknown>) =>
    fetch(`${gw.url}/openai/v1/responses`, { method: 'POST', headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gpt-4.1-mini', input: 'and then?', ...body }) });

  /** Answers as a project does: it knows only the responses its own keys stored. */
  const upstreamAnswering = (byKey: Record<string, [number, unknown]>, seen: string[]) =>
    nock(UPSTREAM)
      .post('/v1/responses')
      .times(Object.keys(byKey).length + 2)
      .reply(function () {
        const key = String(this.req.headers.authorization).replace('Bearer ', '');
        seen.push(key);
        const [status, body] = byKey[key];
        return [status, typeof body === 'string' ? body : JSON.stringify(body), { 'content-type': 'application/json' }];
      });

  it('is tried with the other key when the first does not know that response, and answered by the one that does', async () => {
    const seen: string[] = [];
    upstreamAnswering({ [KEY_A]: [400, NOT_FOUND], [KEY_B]: [200, fixtureBytes('openai-responses/response-basic.json').toString('utf8')] }, seen);
    const res = await ask({ previous_response_id: 'resp_1' });
    expect(res.status).to.equal(200);
    expect(((await res.json()) as { object: string }).object).to.equal('response');
    expect(seen).to.deep.equal([KEY_A, KEY_B]);
  });

  it('gives the client the upstream\'s 400 when no key knows it, after one call per key', async () => {
    const seen: string[] = [];
    upstreamAnswering({ [KEY_A]: [400, NOT_FOUND], [KEY_B]: [400, NOT_FOUND] }, seen);
    const res = await ask({ previous_response_id: 'resp_1' });
    expect(res.status).to.equal(400);
    expect(((await res.json()) as { error: { message: string; param: string } }).error).to.include({ message: NOT_FOUND.error.message, param: 'previous_response_id' });
    expect(seen).to.deep.equal([KEY_A, KEY_B]);
  });

  it('does not retry any other failure, nor a request that continues nothing', async () => {
    const seen: string[] = [];
    const invalid = { error: { message: 'Invalid value for temperature', type: 'invalid_request_error', param: 'temperature', code: 'invalid_value' } };
    upstreamAnswering({ [KEY_A]: [400, invalid], [KEY_B]: [400, NOT_FOUND] }, seen);
    const res = await ask({ previous_response_id: 'resp_1', temperature: 9 });
    expect(res.status).to.equal(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).to.equal('Invalid value for temperature');
    expect(seen).to.deep.equal([KEY_A]);
    const plain = await ask({});
    expect(plain.status).to.equal(400);
    expect(seen).to.deep.equal([KEY_A, KEY_B]);
  });
});
