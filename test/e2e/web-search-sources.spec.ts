import { expect } from 'chai';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { TEST_LICENSE } from '../helpers/start-gateway';
import { useSimulatorGateway } from '../helpers/use-simulator-gateway';

/**
 * Codex's hosted web search (`tools: [{type: "web_search"}]`) and chat's `web_search_options` on Claude and Gemini:
 * the client gets the search as OpenAI gives it, a `web_search_call` item and `url_citation` annotations.
 */
describe('e2e: web search sources on Claude and Gemini (openai SDK → gateway → simulator)', function () {
  this.timeout(20_000);
  const env = useSimulatorGateway((sim) => ({
    claude: { plugin: 'claude', baseUrl: sim.anthropicUrl, credentials: [{ apiKey: 'sk-ant-sim-upstream-0001' }] },
    gemini: { plugin: 'gemini', baseUrl: sim.geminiUrl, credentials: [{ apiKey: 'AIzaSy-sim-upstream-0001' }] },
  }));

  for (const [platform, model, firstUrl] of [
    ['claude', 'claude-sonnet-4-5', 'https://example.com/node-20-release'],
    ['gemini', 'gemini-2.5-flash', 'https://example.com/node-20-release'],
  ]) {
    it(`${platform}: Responses gets a web_search_call item and url_citation annotations; chat gets message.annotations`, async () => {
      const client = new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${env.gw.url}/${platform}/v1`, maxRetries: 0 });
      const prompt = 'Search the web for: "node 20 release"';
      const response = await client.responses.create({ model, input: prompt, tools: [{ type: 'web_search' }] });
      const search = response.output.find((item) => item.type === 'web_search_call');
      if (search?.type !== 'web_search_call') throw new Error(`expected a web_search_call, got ${JSON.stringify(response.output)}`);
      expect(search.status).to.equal('completed');
      expect(search.action).to.deep.include({ type: 'search', query: 'node 20 release' });
      const message = response.output.find((item) => item.type === 'message');
      const annotations = message?.type === 'message' ? message.content.flatMap((part) => (part.type === 'output_text' ? part.annotations : [])) : [];
      expect(annotations.length).to.be.greaterThan(0);
      expect(annotations[0]).to.deep.include({ type: 'url_citation', url: firstUrl });
      expect(response.output_text).to.include('Result 1 about node 20 release.');

      const chat = await client.chat.completions.create({ model, messages: [{ role: 'user', content: prompt }], web_search_options: {} });
      const cited = chat.choices[0].message.annotations ?? [];
      expect(cited[0]).to.deep.include({ type: 'url_citation' });
      const { start_index: start, end_index: end, url } = cited[0].url_citation;
      expect(url).to.equal(firstUrl);
      expect(chat.choices[0].message.content?.slice(start, end)).to.include('Result 1 about node 20 release.');
    });
  }

  it('claude: a Gemini client\'s googleSearch (Gemini CLI\'s google_web_search) gets groundingMetadata', async () => {
    const ai = new GoogleGenAI({ apiKey: TEST_LICENSE, httpOptions: { baseUrl: `${env.gw.url}/claude` } });
    const answer = await ai.models.generateContent({ model: 'claude-sonnet-4-5', contents: 'Search the web for: "node 20 release"', config: { tools: [{ googleSearch: {} }] } });
    const grounding = answer.candidates?.[0].groundingMetadata;
    expect(grounding?.webSearchQueries).to.deep.equal(['node 20 release']);
    expect(grounding?.groundingChunks?.[0].web?.uri).to.equal('https://example.com/node-20-release');
    const support = grounding?.groundingSupports?.[0];
    expect(support?.segment?.text).to.include('Result 1 about node 20 release.');
  });

  it('gemini: an Anthropic client\'s web search tool (Claude Code\'s WebSearch) gets web_search_tool_result and cited text', async () => {
    const client = new Anthropic({ apiKey: TEST_LICENSE, baseURL: `${env.gw.url}/gemini`, maxRetries: 0 });
    const message = await client.messages.create({
      model: 'gemini-2.5-flash',
      max_tokens: 200,
      tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 2 }],
      messages: [{ role: 'user', content: 'Search the web for: "node 20 release"' }],
    });
    const results = message.content.find((block) => block.type === 'web_search_tool_result');
    expect(results?.type === 'web_search_tool_result' && Array.isArray(results.content) && results.content[0]).to.deep.include({ type: 'web_search_result', url: 'https://example.com/node-20-release' });
    const cited = message.content.find((block) => block.type === 'text' && (block.citations ?? []).length > 0);
    expect(cited?.type === 'text' && cited.citations?.[0]).to.deep.include({ type: 'web_search_result_location', url: 'https://example.com/node-20-release' });
  });
});
