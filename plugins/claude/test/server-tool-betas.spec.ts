import { GoogleGenAI } from '@google/genai';
import { expect } from 'chai';
import OpenAI from 'openai';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../../../test/helpers/start-gateway';
import { startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream';
import { messagesAnswer } from './helpers/messages-stream';

const MODEL = 'claude-sonnet-4-6';
const CODE_BETA = 'code-execution-2025-08-25';
const ANSWER = JSON.stringify(messagesAnswer('msg_1', [{ type: 'text', text: 'Mean: 5.5' }], 'end_turn'));

/** The tool types the upstream was offered. */
const toolTypes = (json: unknown): unknown[] => ((json as { tools?: Array<{ type?: string }> }).tools ?? []).map((tool) => tool.type);

describe('claude plugin: beta flags of translated server tools', function () {
  this.timeout(20_000);
  let upstream: FakeUpstream;
  let gw: RunningGateway;
  before(async () => {
    upstream = await startFakeUpstream();
    gw = await startGateway({ claude: { plugin: 'claude', baseUrl: upstream.url, credentials: [{ apiKey: 'sk-ant-api03-tool-betas-00000000001' }] } });
  });
  after(async () => {
    await gw.close();
    await upstream.close();
  });
  beforeEach(() => upstream.reset());

  it('OpenAI SDK: a Responses code_interpreter goes as code execution with its beta flag', async () => {
    upstream.queue({ status: 200, body: ANSWER });
    const openai = new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/claude/v1`, maxRetries: 0 });
    const response = await openai.responses.create({ model: MODEL, input: 'Mean of 1..10?', tools: [{ type: 'code_interpreter', container: { type: 'auto' } }] });
    expect(response.output_text).to.equal('Mean: 5.5');
    expect(toolTypes(upstream.seen[0].json)).to.deep.equal(['code_execution_20250825']);
    expect(upstream.seen[0].headers['anthropic-beta']).to.equal(CODE_BETA);
  });

  it('Google SDK: codeExecution likewise; a request without it sends no beta flag', async () => {
    upstream.queue({ status: 200, body: ANSWER }, { status: 200, body: ANSWER });
    const google = new GoogleGenAI({ apiKey: TEST_LICENSE, httpOptions: { baseUrl: `${gw.url}/claude` } });
    await google.models.generateContent({ model: MODEL, contents: 'Mean of 1..10?', config: { tools: [{ codeExecution: {} }] } });
    expect(toolTypes(upstream.seen[0].json)).to.deep.equal(['code_execution_20250825']);
    expect(upstream.seen[0].headers['anthropic-beta']).to.equal(CODE_BETA);
    await google.models.generateContent({ model: MODEL, contents: 'Hello' });
    expect(upstream.seen[1].headers['anthropic-beta']).to.equal(undefined);
  });
});
