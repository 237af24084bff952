import { GoogleGenAI } from '@google/genai';
import { expect } from 'chai';
import OpenAI from 'openai';
import { startGateway, TEST_LICENSE, type RunningGateway } from '../../../test/helpers/start-gateway';
import { startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream';
import { messagesAnswer } from './helpers/messages-stream';

const ANSWER = JSON.stringify(messagesAnswer('msg_1', [{ type: 'thinking', thinking: 'Summary.', signature: 'EqQBsig' }, { type: 'text', text: 'Blue.' }], 'end_turn'));
type Sent = Record<string, unknown>;

describe('claude plugin: adaptive-only models (Opus 4.7 and later) through the SDKs', function () {
  this.timeout(20_000);
  let upstream: FakeUpstream;
  let gw: RunningGateway;
  before(async () => {
    upstream = await startFakeUpstream();
    gw = await startGateway({ claude: { plugin: 'claude', baseUrl: upstream.url, credentials: [{ apiKey: 'sk-ant-api03-adaptive-only-000000001' }] } });
  });
  after(async () => {
    await gw.close();
    await upstream.close();
  });
  beforeEach(() => upstream.reset());

  it('a -thinking model from a chat client thinks adaptively, its thoughts summarized, with no sampling parameters', async () => {
    upstream.queue({ status: 200, body: ANSWER });
    const openai = new OpenAI({ apiKey: TEST_LICENSE, baseURL: `${gw.url}/claude/v1`, maxRetries: 0 });
    const completion = await openai.chat.completions.create({ model: 'claude-opus-4-7-thinking', messages: [{ role: 'user', content: 'Sky colour?' }], temperature: 0.3, top_p: 1 });
    expect(completion.choices[0].message.content).to.equal('Blue.');
    const sent = upstream.seen[0].json as Sent;
    expect(sent).to.deep.include({ model: 'claude-opus-4-7', thinking: { type: 'adaptive', display: 'summarized' }, output_config: { effort: 'high' } });
    expect(sent).not.to.have.any.keys('temperature', 'top_p', 'top_k');
  });

  it('Gemini CLI\'s settings (temperature, topP, thinkingConfig with a budget and thoughts) go as Opus 4.7 takes them', async () => {
    upstream.queue({ status: 200, body: ANSWER });
    const google = new GoogleGenAI({ apiKey: TEST_LICENSE, httpOptions: { baseUrl: `${gw.url}/claude` } });
    const response = await google.models.generateContent({
      model: 'claude-opus-4-7',
      contents: 'Sky colour?',
      config: { temperature: 0, topP: 1, thinkingConfig: { includeThoughts: true, thinkingBudget: 2048 } },
    });
    expect(response.text).to.equal('Blue.');
    const sent = upstream.seen[0].json as Sent;
    expect(sent).to.deep.include({ thinking: { type: 'adaptive', display: 'summarized' }, output_config: { effort: 'low' } });
    expect(sent).not.to.have.any.keys('temperature', 'top_p', 'top_k');
  });
});
