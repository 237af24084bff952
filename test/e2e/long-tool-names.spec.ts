import Anthropic from '@anthropic-ai/sdk';
import { expect } from 'chai';
import { TEST_LICENSE } from '../helpers/start-gateway';
import { useSimulatorGateway } from '../helpers/use-simulator-gateway';

/** Claude Code names MCP tools `mcp__<server>__<tool>`: Anthropic takes 128 characters, OpenAI 64. */
const LONG_NAME = 'mcp__claude_ai_Atlassian_Rovo__getConfluencePageFooterCommentsWithReplies';
const TOOLS: Anthropic.Tool[] = [
  { name: LONG_NAME, description: 'Footer comments', input_schema: { type: 'object', properties: { pageId: { type: 'string' } }, required: ['pageId'] } },
  { name: 'Read', description: 'Read a file', input_schema: { type: 'object', properties: {} } },
];

describe('e2e: a Messages client\'s tool names past 64 characters on a chat upstream (Anthropic SDK → gateway → simulator)', function () {
  this.timeout(20_000);
  const env = useSimulatorGateway((sim) => ({ openai: { plugin: 'openai', baseUrl: sim.openaiUrl, credentials: [{ apiKey: 'sk-sim-upstream-0001' }] } }));
  let client: Anthropic;
  before(() => {
    client = new Anthropic({ apiKey: TEST_LICENSE, baseURL: `${env.gw.url}/openai`, maxRetries: 0 });
  });

  /** Function names the upstream was sent: declared, and called in the history. */
  function upstreamNames(): { declared: string[]; called: string[] } {
    const body = env.sim.requests[env.sim.requests.length - 1].body as { tools: Array<{ function: { name: string } }>; messages: Array<{ tool_calls?: Array<{ function: { name: string } }> }> };
    return { declared: body.tools.map((tool) => tool.function.name), called: body.messages.flatMap((m) => (m.tool_calls ?? []).map((call) => call.function.name)) };
  }

  for (const streaming of [false, true]) {
    it(`${streaming ? 'streamed' : 'whole'}: the upstream gets a name within 64 characters, the client its own name back, and the next turn works`, async () => {
      const messages: Anthropic.MessageParam[] = [{ role: 'user', content: '[sim:tool] any footer comments?' }];
      const params = { model: 'gpt-4.1', max_tokens: 200, tools: TOOLS, tool_choice: { type: 'tool' as const, name: LONG_NAME }, messages };
      const first = streaming ? await client.messages.stream(params).finalMessage() : await client.messages.create(params);
      const { declared } = upstreamNames();
      expect(declared[0]).to.have.length.of.at.most(64).and.match(/^mcp__claude_ai_Atlassian_Rovo__getConfluence/);
      expect(declared[1]).to.equal('Read');
      const call = first.content.find((block) => block.type === 'tool_use');
      if (call?.type !== 'tool_use') throw new Error(`expected a tool_use, got ${JSON.stringify(first.content)}`);
      expect(call.name).to.equal(LONG_NAME);

      const next = await client.messages.create({
        ...params,
        tool_choice: { type: 'auto' },
        messages: [...messages, { role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'no comments' }] }],
      });
      expect(upstreamNames().called).to.deep.equal([declared[0]]);
      expect(next.content).to.deep.equal([{ type: 'text', text: 'Tool said: no comments' }]);
    });
  }
});
