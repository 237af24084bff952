import { expect } from 'chai';
import { ConfigError, createGateway, parseConfig } from '@gateway/core';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../../helpers/start-gateway';
import { cleanedUp, stageEnds } from './fixtures/fault-plugin';

const PLUGIN = './test/core/plugins/fixtures/fault-plugin.ts';
const SECRET = 'tenant-7f3a9c2e1b4d8a6f';

/** A third-party plugin that fails in one place: the gateway answers in the endpoint's own shape, and keeps serving. */
describe('a misbehaving third-party plugin', () => {
  let gw: RunningGateway;
  before(async () => {
    const platform = (fault: string) => ({ plugin: PLUGIN, baseUrl: 'http://127.0.0.1:9', fault });
    gw = await startGateway({
      ok: platform('none'),
      s99: platform('status99'),
      s200: platform('status200'),
      t401: platform('thrown401'),
      stage: platform('stage-every-event'),
      stages: platform('stages-not-array'),
      empty: platform('custom-empty'),
    });
  });
  after(() => gw.close());

  const chat = (platform: string, stream = false, headers: Record<string, string> = {}) =>
    fetch(`${gw.url}/${platform}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ model: 'm', stream, messages: [{ role: 'user', content: 'hi' }] }),
    });

  it('an error with a status that is no error status (99, 200) is a neutral 500 in the endpoint\'s shape, never a stack trace', async () => {
    for (const platform of ['s99', 's200']) {
      const res = await chat(platform);
      expect(res.status, platform).to.equal(500);
      expect(res.headers.get('content-type')).to.match(/^application\/json/);
      const body = (await res.json()) as { error: { message: string } };
      expect(body.error.message).to.match(/^internal gateway error \(request id /);
    }
    expect((await chat('ok')).status).to.equal(200);
  });

  it('a malformed % escape in the path is still the client\'s 400 (Express\'s own error), in the endpoint\'s shape', async () => {
    const res = await fetch(`${gw.url}/o%ZZk/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).to.equal(400);
    expect(((await res.json()) as { error: { type: string } }).error.type).to.equal('invalid_request_error');
  });

  it('a thrown library error carrying a 401 is the gateway\'s 500, not the client\'s 401', async () => {
    const res = await chat('t401');
    expect(res.status).to.equal(500);
  });

  it('a stage failing on every event ends the stream with an error event, not an empty 200', async () => {
    const res = await chat('stage', true);
    const text = await res.text();
    expect(text).to.match(/"error"/);
  });

  it('a streamTransform that answers no array of stages is a neutral 500', async () => {
    const res = await chat('stages', true);
    expect(res.status).to.equal(500);
  });

  it('a custom handler answering neither json nor a stream is a neutral 500, not an empty 200', async () => {
    expect((await chat('empty')).status).to.equal(500);
  });

  it('an auth tap answering something that is no principal is a neutral 500, not an accepted client', async () => {
    expect((await chat('ok', false, { authorization: '', 'x-fault-auth': 'yes' })).status).to.equal(500);
  });

  it('calls each stage\'s end once for a stream that finished normally', async () => {
    stageEnds.length = 0;
    const res = await chat('ok', true);
    expect(await res.text()).to.include('[DONE]');
    expect(stageEnds).to.deep.equal(['ok']);
  });
});

describe('a third-party plugin at start-up', () => {
  async function startupError(fault: string, applyTimeoutMs?: number): Promise<string> {
    const { config } = parseConfig(
      { store: { driver: 'memory' }, logging: { level: 'silent' }, platforms: { mine: { plugin: PLUGIN, baseUrl: 'http://127.0.0.1:9', fault, secretToken: SECRET } } },
      `${process.cwd()}/test-config`,
      {},
    );
    const error = await createGateway(config, { pluginApplyTimeoutMs: applyTimeoutMs }).then((gateway) => gateway.close(0), (e: unknown) => e);
    expect(error, 'start-up should fail').to.be.instanceOf(ConfigError);
    return (error as Error).message;
  }

  it('a strict options schema (additionalProperties: false over its own keys) is accepted beside core\'s keys', async () => {
    const { config } = parseConfig({ store: { driver: 'memory' }, logging: { level: 'silent' }, platforms: { mine: { plugin: PLUGIN, baseUrl: 'http://127.0.0.1:9', fault: 'none' } } }, `${process.cwd()}/test-config`, {});
    await (await createGateway(config)).close(0);
  });

  it('a set-up that throws names the platform and the plugin, its secrets masked', async () => {
    const message = await startupError('apply-throws');
    expect(message).to.match(/^platforms\.mine \(plugin "fault"\): set-up failed: set-up failed with token /);
    expect(message).not.to.include(SECRET);
  });

  it('a set-up failing after other platforms mounted runs their clean-ups', async () => {
    cleanedUp.length = 0;
    const platform = (fault: string) => ({ plugin: PLUGIN, baseUrl: 'http://127.0.0.1:9', fault });
    const { config } = parseConfig({ store: { driver: 'memory' }, logging: { level: 'silent' }, platforms: { first: platform('none'), second: platform('apply-throws') } }, `${process.cwd()}/test-config`, {});
    const error = await createGateway(config).then((gateway) => gateway.close(0), (e: unknown) => e);
    expect(error).to.be.instanceOf(ConfigError);
    expect(cleanedUp).to.include('first');
  });

  it('tapping another platform\'s key stops start-up, naming both', async () => {
    expect(await startupError('hijack')).to.equal('platforms.mine (plugin "fault"): taps hooks.route.for("openai"); a plugin taps only its own platform\'s key');
  });

  it('a set-up that never settles fails after the timeout, naming the platform and the plugin', async () => {
    expect(await startupError('apply-hangs', 50)).to.equal('platforms.mine (plugin "fault"): set-up did not finish within 0.05 s');
  });
});
