import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { expect } from 'chai';
import OpenAI from 'openai';
import { startSimulator, type Simulator } from '../../simulator';
import { rejection } from '../helpers/rejection';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../helpers/start-gateway';

/**
 * The models endpoints of every platform, through the three official SDKs, against the simulator: each SDK lists
 * (paging included) and looks one model up in its own shape, and a model that is not there is its own 404 error.
 */

const PLATFORMS = ['claude', 'gemini', 'openai', 'pool'] as const;
type Platform = (typeof PLATFORMS)[number];

/** What each platform's upstream lists (simulator/*.ts MODELS), as the SDKs see the ids. */
const UPSTREAM_IDS: Record<Platform, string[]> = {
  claude: ['claude-sonnet-4-6', 'claude-opus-4-6', 'claude-haiku-4-5'],
  gemini: ['gemini-2.5-flash', 'gemini-2.5-pro', 'gemini-3-flash-preview'],
  openai: ['gpt-4.1-mini', 'gpt-4.1', 'gpt-5'],
  pool: ['gpt-4.1-mini', 'gpt-4.1', 'gpt-5'],
};
/** The suffixes each platform's translated endpoints understand. */
const VARIANTS: Record<Platform, string[]> = { claude: ['-thinking'], gemini: ['-thinking'], openai: [], pool: ['-thinking', '-max'] };
const EXTRA = 'operator-extra-model';

/** The ids listed: the pool also offers variants of the operator's extras; the others list the extras last. */
function listed(platform: Platform, variants = true): string[] {
  const expand = (id: string): string[] => [id, ...(variants ? VARIANTS[platform] : []).map((suffix) => `${id}${suffix}`)];
  return platform === 'pool' ? [...UPSTREAM_IDS.pool, EXTRA].flatMap(expand) : [...UPSTREAM_IDS[platform].flatMap(expand), EXTRA];
}

describe('e2e: model lists through the official SDKs', () => {
  let sim: Simulator;
  let gw: RunningGateway;

  before(async () => {
    sim = await startSimulator({ port: 0 });
    gw = await startGateway({
      claude: { plugin: 'claude', baseUrl: sim.anthropicUrl, credentials: [{ apiKey: 'sk-ant-api03-sim-models-0001' }], models: [EXTRA] },
      gemini: { plugin: 'gemini', baseUrl: sim.geminiUrl, credentials: [{ apiKey: 'AIzaSy-sim-models-0001' }], models: [EXTRA] },
      openai: { plugin: 'openai', baseUrl: sim.openaiUrl, credentials: [{ apiKey: 'sk-sim-models-0001' }], models: [EXTRA] },
      pool: { plugin: 'token-pool', baseUrl: sim.openaiUrl, rotation: 1, tokens: [{ token: 'sk-sim-pool-models-0001' }], models: [EXTRA] },
    });
  });
  after(async () => {
    await gw?.close();
    await sim?.close();
  });

  for (const platform of PLATFORMS) {
    it(`openai SDK on /${platform}: lists every model with its variants and retrieves one`, async () => {
      const client = new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/${platform}/v1`, maxRetries: 0 });
      const ids: string[] = [];
      for await (const model of client.models.list()) ids.push(model.id);
      expect(ids).to.deep.equal(listed(platform));
      const model = await client.models.retrieve(UPSTREAM_IDS[platform][1]);
      expect(model).to.deep.include({ id: UPSTREAM_IDS[platform][1], object: 'model' });
      const missing = await rejection(client.models.retrieve('no-such-model'));
      expect(missing).to.be.instanceOf(OpenAI.NotFoundError);
      expect((missing as InstanceType<typeof OpenAI.NotFoundError>).code).to.equal('model_not_found');
    });

    it(`anthropic SDK on /${platform}: pages through the list in its shape and retrieves one`, async () => {
      const client = new Anthropic({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/${platform}`, maxRetries: 0 });
      const first = await client.models.list({ limit: 2 });
      expect(first.data).to.have.length(2);
      expect(first.has_more).to.equal(true);
      const ids: string[] = [];
      for await (const model of client.models.list({ limit: 2 })) {
        expect(model.type).to.equal('model');
        expect(model.created_at).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
        ids.push(model.id);
      }
      // Claude's /v1/messages is a passthrough: its variants would reach Anthropic unchanged, so they are not listed.
      expect(ids).to.deep.equal(listed(platform, platform !== 'claude'));
      const model = await client.models.retrieve(UPSTREAM_IDS[platform][0]);
      expect(model).to.deep.include({ type: 'model', id: UPSTREAM_IDS[platform][0] });
      if (platform === 'claude') expect(model.display_name).to.equal('Claude Sonnet 4.6');
      const missing = await rejection(client.models.retrieve('no-such-model'));
      expect(missing).to.be.instanceOf(Anthropic.NotFoundError);
      expect((missing as InstanceType<typeof Anthropic.NotFoundError>).error).to.deep.include({ type: 'error' });
    });

    for (const apiVersion of ['v1beta', 'v1', 'v1alpha']) {
      it(`@google/genai (${apiVersion}) on /${platform}: pages through the list in its shape and gets one`, async () => {
        const ai = new GoogleGenAI({ apiKey: TEST_LICENSE, apiVersion, httpOptions: { baseUrl: `${gw.url}/${platform}` } });
        const names: string[] = [];
        for await (const model of await ai.models.list({ config: { pageSize: 2 } })) names.push(model.name ?? '');
        // Gemini's native path is a passthrough: its `-thinking` variants are not listed there.
        const ids = listed(platform, platform !== 'gemini');
        expect(names).to.deep.equal(ids.map((id) => `models/${id}`));
        const model = await ai.models.get({ model: UPSTREAM_IDS[platform][0] });
        expect(model.name).to.equal(`models/${UPSTREAM_IDS[platform][0]}`);
        if (platform === 'gemini') expect(model).to.deep.include({ displayName: 'Gemini 2.5 Flash', inputTokenLimit: 1048576, outputTokenLimit: 65536 });
        const missing = await rejection(ai.models.get({ model: 'no-such-model' }));
        expect((missing as { status?: number }).status).to.equal(404);
        expect(String((missing as Error).message)).to.include('NOT_FOUND');
      });
    }
  }
});
