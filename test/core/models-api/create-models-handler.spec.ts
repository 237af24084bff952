import { expect } from 'chai';
import { isGatewayError } from '../../../core/errors/gateway-error';
import type { EndpointId } from '../../../core/hooks/endpoints';
import type { RequestContext } from '../../../core/hooks/plugin-api';
import { createModelsHandler, distinctModels, withExtraModels } from '../../../core/models-api/create-models-handler';
import type { ModelCard } from '../../../core/models-api/model-card';

const CARDS: ModelCard[] = [
  { id: 'm-a', ownedBy: 'acme', created: 0, displayName: 'A' },
  { id: 'm-a-thinking', ownedBy: 'acme', created: 0, displayName: 'A (thinking)', variantOf: 'm-a' },
  { id: 'org/m-b', ownedBy: 'acme' },
];

function call(endpoint: EndpointId, headers: Record<string, string> = {}, params: Record<string, string> = {}, query: Record<string, string> = {}) {
  const handle = createModelsHandler({ list: async () => CARDS, variantDialects: ['openai'] });
  const ctx = { platform: 'p', endpoint, headers, params, query } as unknown as RequestContext;
  return handle({ body: {}, files: [] }, ctx).then((result) => ('json' in result ? result.json : undefined));
}

describe('createModelsHandler', () => {
  it('lists every model, variants included, to an OpenAI client', async () => {
    const list = (await call('models')) as { object: string; data: Array<{ id: string }> };
    expect(list.object).to.equal('list');
    expect(list.data.map((model) => model.id)).to.deep.equal(['m-a', 'm-a-thinking', 'org/m-b']);
  });

  it('lists an Anthropic page without the variants its passthrough would not understand', async () => {
    expect(await call('models', { 'anthropic-version': '2023-06-01' }, {}, { limit: '1' })).to.deep.equal({
      data: [{ type: 'model', id: 'm-a', display_name: 'A', created_at: '1970-01-01T00:00:00Z' }],
      has_more: true,
      first_id: 'm-a',
      last_id: 'm-a',
    });
    expect(await call('models', { 'anthropic-version': '2023-06-01' }, {}, { after_id: 'm-a' })).to.deep.include({ has_more: false, first_id: 'org/m-b', last_id: 'org/m-b' });
  });

  it('lists a Gemini page with a nextPageToken', async () => {
    expect(await call('gemini.models', {}, {}, { pageSize: '1' })).to.deep.equal({
      models: [{ name: 'models/m-a', displayName: 'A', supportedGenerationMethods: ['generateContent', 'countTokens'] }],
      nextPageToken: '1',
    });
  });

  it('looks one model up in the dialect of the caller (ids with a slash, Gemini names with models/)', async () => {
    expect(await call('models.get', {}, { model: 'org/m-b' })).to.deep.equal({ id: 'org/m-b', object: 'model', created: 0, owned_by: 'acme' });
    expect(await call('models.get', { 'anthropic-version': '2023-06-01' }, { model: 'm-a' })).to.deep.include({ type: 'model', id: 'm-a' });
    expect(await call('gemini.models.get', {}, { model: 'models/m-a' })).to.deep.include({ name: 'models/m-a' });
  });

  it('answers 404 naming the model for one not listed, and for a variant the caller is not offered', async () => {
    for (const [endpoint, headers, model] of [['models.get', {}, 'nope'], ['models.get', { 'anthropic-version': '2023-06-01' }, 'm-a-thinking']] as const) {
      const error = await call(endpoint, headers, { model }).catch((e: unknown) => e);
      expect(isGatewayError(error) && [error.status, error.param, error.message]).to.deep.equal([404, 'model', `model "${model}" is not served by platform "p"`]);
    }
  });
});

describe('withExtraModels', () => {
  it("adds the operator's ids after the listed ones, once each, owned by the platform", () => {
    expect(withExtraModels([{ id: 'a', ownedBy: 'x' }], ['b', 'a', 'b'], 'p')).to.deep.equal([{ id: 'a', ownedBy: 'x' }, { id: 'b', ownedBy: 'p' }]);
  });
});

describe('distinctModels', () => {
  it('keeps each id once, where it first appears, and a listed model over a variant of the same name', () => {
    const cards: ModelCard[] = [
      { id: 'a', ownedBy: 'x' },
      { id: 'a-thinking', ownedBy: 'x', variantOf: 'a' },
      { id: 'a', ownedBy: 'dup' },
      { id: 'a-thinking', ownedBy: 'upstream' },
    ];
    expect(distinctModels(cards)).to.deep.equal([{ id: 'a', ownedBy: 'x' }, { id: 'a-thinking', ownedBy: 'upstream' }]);
  });
});
