import { expect } from 'chai';
import nock from 'nock';
import { startSimulator, type Simulator } from '../../../simulator';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../../../test/helpers/start-gateway';
import { fromClaudeSearch } from '../src/claude-search';

const UPSTREAM = 'https://anthropic.upstream.test';
const API_KEY = 'sk-ant-api03-upstream-key-for-search-0001';

/** A Messages answer with the server web search tool, as the API documents it. */
const ANSWER = {
  id: 'msg_01',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-6',
  content: [
    { type: 'text', text: "I'll search for that." },
    { type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: { query: 'node 20 lts' } },
    {
      type: 'web_search_tool_result',
      tool_use_id: 'srvtoolu_01',
      content: [
        { type: 'web_search_result', url: 'https://nodejs.org/en/about/releases', title: 'Node.js Releases', encrypted_content: 'EqgfCioIARgBIiQ3', page_age: 'April 30, 2025' },
        { type: 'web_search_result', url: 'https://www.example.com/node', title: 'Node on example', encrypted_content: 'EqgfCioIARgBIiQ4', page_age: null },
      ],
    },
    {
      type: 'text',
      text: 'Node 20 is in maintenance LTS.',
      citations: [{ type: 'web_search_result_location', url: 'https://nodejs.org/en/about/releases', title: 'Node.js Releases', encrypted_index: 'Eo8BCioIAhgB', cited_text: 'Node.js 20 Maintenance LTS' }],
    },
  ],
  stop_reason: 'end_turn',
  usage: { input_tokens: 100, output_tokens: 20, server_tool_use: { web_search_requests: 1 } },
};

describe('claude plugin: web search (server web search tool)', () => {
  let gw: RunningGateway;
  before(async () => {
    gw = await startGateway({ claude: { plugin: 'claude', baseUrl: UPSTREAM, credentials: [{ apiKey: API_KEY }] } });
  });
  after(() => gw.close());
  afterEach(() => nock.cleanAll());

  async function search(body: unknown): Promise<Response> {
    return fetch(`${gw.url}/claude/v1/alpha/search`, { method: 'POST', headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  }

  it('one Messages call with the web search tool; tool results become results, citations their snippets', async () => {
    let sent: Record<string, unknown> | undefined;
    let headers: Record<string, unknown> = {};
    nock(UPSTREAM)
      .post('/v1/messages')
      .reply(function (_uri, body) {
        sent = body as Record<string, unknown>;
        headers = this.req.headers;
        return [200, ANSWER];
      });
    const res = await search({
      model: 'claude-opus-4-1-thinking',
      commands: { search_query: [{ q: 'node 20 lts' }, { q: 'express 5' }] },
      settings: { filters: { blocked_domains: ['spam.test'] }, user_location: { type: 'approximate', country: 'DE' } },
    });
    expect(res.status).to.equal(200);
    expect(headers['x-api-key']).to.equal(API_KEY);
    expect(headers['anthropic-version']).to.equal('2023-06-01');
    expect(sent?.model).to.equal('claude-opus-4-1');
    expect(sent?.tools).to.deep.equal([{ type: 'web_search_20250305', name: 'web_search', max_uses: 5, blocked_domains: ['spam.test'], user_location: { type: 'approximate', country: 'DE' } }]);
    expect((sent?.messages as Array<{ content: string }>)[0].content).to.contain('"node 20 lts"').and.contain('"express 5"');
    const body = (await res.json()) as { output: string; encrypted_output: null; results: unknown[] };
    expect(body.encrypted_output).to.equal(null);
    expect(body.results).to.deep.equal([
      { type: 'text_result', domain: 'nodejs.org', ref_id: 'turn0search0', snippet: 'Node.js 20 Maintenance LTS', title: 'Node.js Releases', url: 'https://nodejs.org/en/about/releases' },
      { type: 'text_result', domain: 'example.com', ref_id: 'turn0search1', snippet: '', title: 'Node on example', url: 'https://www.example.com/node' },
    ]);
    expect(body.output).to.match(/^I'll search for that\.Node 20 is in maintenance LTS\.\n\nSources:\n\[turn0search0\] Node\.js Releases \(nodejs\.org\)/);
  });

  it('continues a paused turn (stop_reason pause_turn) by sending it back, the answer made of every round', async () => {
    const paused = { ...ANSWER, content: ANSWER.content.slice(0, 3), stop_reason: 'pause_turn' };
    const rest = { ...ANSWER, content: ANSWER.content.slice(3), stop_reason: 'end_turn' };
    const sent: Array<{ messages: Array<{ role: string; content: unknown }> }> = [];
    nock(UPSTREAM)
      .post('/v1/messages')
      .times(2)
      .reply((_uri, body) => {
        sent.push(body as (typeof sent)[number]);
        return [200, sent.length === 1 ? paused : rest];
      });
    const res = await search({ model: 'claude-sonnet-4-6', commands: { search_query: [{ q: 'node 20 lts' }] } });
    expect(res.status).to.equal(200);
    expect(sent[1].messages.map((message) => message.role)).to.deep.equal(['user', 'assistant']);
    expect(sent[1].messages[1].content).to.deep.equal(paused.content);
    const body = (await res.json()) as { output: string; results: Array<{ url: string; snippet: string }> };
    expect(body.results.map((result) => result.url)).to.deep.equal(['https://nodejs.org/en/about/releases', 'https://www.example.com/node']);
    expect(body.results[0].snippet).to.equal('Node.js 20 Maintenance LTS');
    expect(body.output).to.match(/Node 20 is in maintenance LTS\./);
  });

  it('a model that is not Claude falls back to the default search model; an upstream error keeps its status', async () => {
    let model: unknown;
    nock(UPSTREAM)
      .post('/v1/messages')
      .reply((_uri, body) => {
        model = (body as { model: string }).model;
        return [400, { type: 'error', error: { type: 'invalid_request_error', message: 'tools.0: bad' } }];
      });
    const res = await search({ model: 'gpt-5', commands: { search_query: [{ q: 'x' }] } });
    expect(model).to.equal('claude-sonnet-4-6');
    expect(res.status).to.equal(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).to.contain('tools.0: bad');
  });

  it('open commands are a 400 naming them', async () => {
    const res = await search({ commands: { open: [{ ref_id: 'https://example.com' }] } });
    expect(res.status).to.equal(400);
    expect(((await res.json()) as { error: { param: string } }).error.param).to.equal('commands.open');
  });

  it('a failed search without results is an error with the tool code; page age fills a missing snippet', () => {
    expect(() => fromClaudeSearch({ content: [{ type: 'web_search_tool_result', tool_use_id: 'a', content: { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' } }] })).to.throw(/max_uses_exceeded/);
    const { sources } = fromClaudeSearch({ content: [{ type: 'web_search_tool_result', content: [{ type: 'web_search_result', url: 'https://a.test/', title: 'A', page_age: '2 days ago' }] }] });
    expect(sources).to.deep.equal([{ url: 'https://a.test/', title: 'A', snippet: 'Page age: 2 days ago' }]);
  });

  it('an answer with neither text nor sources is a 502 naming the stop reason', () => {
    expect(() => fromClaudeSearch({ content: [{ type: 'server_tool_use', id: 'a', name: 'web_search', input: { query: 'x' } }], stop_reason: 'max_tokens' })).to.throw(
      'upstream search answered neither text nor sources (stop reason max_tokens)',
    );
  });
});

describe('e2e: fetch → gateway → simulator (claude web search)', function () {
  this.timeout(20_000);
  let sim: Simulator;
  let gw: RunningGateway;
  before(async () => {
    sim = await startSimulator({ port: 0 });
    gw = await startGateway({ claude: { plugin: 'claude', baseUrl: sim.anthropicUrl, credentials: [{ apiKey: 'sk-ant-api03-simulated-upstream-key-0001' }] } });
  });
  after(async () => {
    await gw.close();
    await sim.close();
  });

  it('answers both queries of a Codex search call', async () => {
    const res = await fetch(`${gw.url}/claude/v1/alpha/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'c1', model: 'claude-sonnet-4-6', commands: { search_query: [{ q: 'node streams' }, { q: 'express 5' }] } }),
    });
    expect(res.status).to.equal(200);
    const body = (await res.json()) as { output: string; results: Array<{ url: string; snippet: string; ref_id: string }> };
    expect(body.results.map((result) => result.url)).to.deep.equal([
      'https://example.com/node-streams',
      'https://news.example.net/node-streams',
      'https://example.com/express-5',
      'https://news.example.net/express-5',
    ]);
    expect(body.results[0]).to.include({ ref_id: 'turn0search0', snippet: 'node streams explained.' });
    expect(body.output).to.contain('Result 2 about express 5.');
  });
});
