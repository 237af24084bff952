import { GoogleGenAI } from '@google/genai';
import { expect } from 'chai';
import { TEST_LICENSE } from '../helpers/start-gateway';
import { useSimulatorGateway } from '../helpers/use-simulator-gateway';

/**
 * `ai.chats` keeps the conversation itself: a streamed turn enters its history only when every chunk has content,
 * the last one (with the finish reason) included. On a translated platform the next turn must carry the first.
 */
describe('e2e: @google/genai chats keep a streamed translated turn in their history', function () {
  this.timeout(20_000);
  const env = useSimulatorGateway((sim) => ({
    claude: { plugin: 'claude', baseUrl: sim.anthropicUrl, credentials: [{ apiKey: 'sk-ant-sim-upstream-0001' }] },
    openai: { plugin: 'openai', baseUrl: sim.openaiUrl, credentials: [{ apiKey: 'sk-sim-upstream-0001' }] },
  }));

  for (const [platform, model] of [['claude', 'claude-sonnet-4-5'], ['openai', 'gpt-4.1']]) {
    it(`${platform}: the second turn goes upstream with the first`, async () => {
      const ai = new GoogleGenAI({ apiKey: TEST_LICENSE, httpOptions: { baseUrl: `${env.gw.url}/${platform}` } });
      const chat = ai.chats.create({ model });
      let text = '';
      for await (const chunk of await chat.sendMessageStream({ message: 'my name is Ada' })) text += chunk.text ?? '';
      expect(text).to.equal('Echo: my name is Ada');
      // The SDK records each streamed chunk's content as a model entry of its own.
      const history = chat.getHistory(true);
      expect(history.map((content) => content.role)).to.include.members(['user', 'model']);
      expect(history[0].role).to.equal('user');
      await chat.sendMessage({ message: 'what is my name?' });
      const { messages } = env.sim.requests[env.sim.requests.length - 1].body as { messages: Array<{ role: string; content: unknown }> };
      const texts = (content: unknown): string => (typeof content === 'string' ? content : (content as Array<{ text?: string }>).map((block) => block.text ?? '').join(''));
      expect(messages.filter((m) => m.role !== 'system').map((m) => [m.role, texts(m.content)])).to.deep.equal([
        ['user', 'my name is Ada'],
        ['assistant', 'Echo: my name is Ada'],
        ['user', 'what is my name?'],
      ]);
    });
  }
});
