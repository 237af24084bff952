import { expect } from 'chai';
import OpenAI from 'openai';
import { startSimulator, type Simulator } from '../../simulator';
import { SIM_CONSULTED_URL, SIM_SEARCH_SOURCES } from '../../simulator/openai-web-search';

describe('simulator openai responses with web_search', () => {
  let sim: Simulator;
  let client: OpenAI;
  before(async () => {
    sim = await startSimulator();
    client = new OpenAI({ apiKey: 'sk-sim', baseURL: `${sim.openaiUrl}/v1`, maxRetries: 0 });
  });
  after(() => sim.close());

  it('answers text citing its sources with url_citation annotations whose indexes cover the links', async () => {
    const response = await client.responses.create({ model: 'gpt-4.1-mini', input: 'Search the web for: "node lts"', tools: [{ type: 'web_search' }] });
    const call = response.output.find((item) => item.type === 'web_search_call');
    expect(call).to.not.equal(undefined);
    const message = response.output.find((item) => item.type === 'message');
    const part = message?.type === 'message' ? message.content[0] : undefined;
    expect(part?.type).to.equal('output_text');
    if (part?.type !== 'output_text') return;
    expect(part.text).to.include('node lts');
    expect(part.annotations.map((a) => (a.type === 'url_citation' ? a.url : ''))).to.deep.equal(SIM_SEARCH_SOURCES.map((s) => s.url));
    for (const annotation of part.annotations) {
      if (annotation.type !== 'url_citation') continue;
      expect(part.text.slice(annotation.start_index, annotation.end_index)).to.equal(`([${new URL(annotation.url).hostname}](${annotation.url}))`);
    }
    expect(response.output_text).to.equal(part.text);
  });

  it('lists the consulted sources only when asked to include them', async () => {
    const plain = await client.responses.create({ model: 'gpt-4.1-mini', input: 'q', tools: [{ type: 'web_search' }] });
    const bare = plain.output.find((item) => item.type === 'web_search_call') as unknown as { action: { sources?: unknown } };
    expect(bare.action.sources).to.equal(undefined);
    const withSources = await client.responses.create({ model: 'gpt-4.1-mini', input: 'q', tools: [{ type: 'web_search' }], include: ['web_search_call.action.sources'] });
    const call = withSources.output.find((item) => item.type === 'web_search_call') as unknown as { action: { sources: Array<{ url: string }> } };
    expect(call.action.sources.map((s) => s.url)).to.include(SIM_CONSULTED_URL);
  });
});
