import { expect } from 'chai';
import winston from 'winston';
import { isGatewayError } from '../../../core/errors/gateway-error';
import type { RequestContext } from '../../../core/hooks/plugin-api';
import { createSearchHandler } from '../../../core/media-api/create-search-handler';
import type { SearchRequest } from '../../../core/media-api/parse-search-request';
import { searchAnswer, type SearchAnswer } from '../../../core/media-api/search-response';
import { createMemoryStore } from '../../../core/store/memory-store';

const ctx = { platform: 'p', log: winston.createLogger({ silent: true }) } as unknown as RequestContext;

function setup(answer: (search: SearchRequest) => SearchAnswer) {
  const asked: SearchRequest[] = [];
  const handle = createSearchHandler({
    store: createMemoryStore(),
    platform: 'p',
    serves: ['search_query', 'open'],
    answer: async (search) => {
      asked.push(search);
      return answer(search);
    },
  });
  return { asked, search: (body: Record<string, unknown>) => handle({ body, files: [] }, ctx) };
}

describe('createSearchHandler', () => {
  it("answers Codex's no-op call (blank queries only) empty, without asking the platform", async () => {
    const { asked, search } = setup(() => ({ text: 'never', sources: [] }));
    const result = await search({ commands: { search_query: [{ q: '' }] } });
    expect(result).to.deep.equal({ status: 200, json: { output: '', encrypted_output: null, results: [] } });
    expect(asked).to.have.length(0);
  });

  it('numbers the sources as results of the turn and resolves them in a later open', async () => {
    const { asked, search } = setup((s) => ({ text: `answer ${s.queries.length}`, sources: [{ url: 'https://a.example/page', title: 'A' }] }));
    const first = await search({ id: 's', commands: { search_query: [{ q: 'x' }, { q: ' ' }] } });
    expect('json' in first && first.json).to.deep.include({ output: 'answer 1\n\nSources:\n[turn0search0] A (a.example): https://a.example/page' });
    await search({ id: 's', commands: { open: [{ ref_id: 'turn0search0' }] } });
    expect(asked[1].opens).to.deep.equal([{ ref_id: 'https://a.example/page' }]);
  });

  it('passes a 502 on when the platform answered neither text nor sources', async () => {
    const { search } = setup(() => searchAnswer(' ', [], 'stop reason max_tokens'));
    const error = await search({ commands: { search_query: [{ q: 'x' }] } }).catch((e: unknown) => e);
    expect(isGatewayError(error) && error.status).to.equal(502);
    expect((error as Error).message).to.equal('upstream search answered neither text nor sources (stop reason max_tokens)');
  });
});
