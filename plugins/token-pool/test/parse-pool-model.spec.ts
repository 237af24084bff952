import { expect } from 'chai';
import { parsePoolModel } from '../src/parse-pool-model';

const PREMIUM = new Set(['gpt-5', 'qwen-max']);

describe('token-pool parsePoolModel', () => {
  const rows: Array<[string, ReturnType<typeof parsePoolModel>]> = [
    ['gpt-4.1', { upstreamModel: 'gpt-4.1', thinking: false }],
    ['gpt-4.1-thinking', { upstreamModel: 'gpt-4.1', thinking: true }],
    ['gpt-4.1-max', { upstreamModel: 'gpt-4.1', thinking: false, premium: 'max-suffix' }],
    ['gpt-4.1-max-thinking', { upstreamModel: 'gpt-4.1', thinking: true, premium: 'max-suffix' }],
    ['gpt-4.1-thinking-max', { upstreamModel: 'gpt-4.1', thinking: true, premium: 'max-suffix' }],
    ['gpt-5', { upstreamModel: 'gpt-5', thinking: false, premium: 'premium-model' }],
    ['gpt-5-thinking', { upstreamModel: 'gpt-5', thinking: true, premium: 'premium-model' }],
    ['qwen-max', { upstreamModel: 'qwen-max', thinking: false, premium: 'premium-model' }],
    ['qwen-max-thinking', { upstreamModel: 'qwen-max', thinking: true, premium: 'premium-model' }],
    ['-thinking', { upstreamModel: '-thinking', thinking: false }],
    ['a-thinking-thinking', { upstreamModel: 'a-thinking', thinking: true }],
  ];
  for (const [model, expected] of rows) {
    it(`${model} → ${JSON.stringify(expected)}`, () => {
      expect(parsePoolModel(model, PREMIUM)).to.deep.equal(expected);
    });
  }

  it('never cuts a name the upstream lists: its own -thinking / -max model, with the gateway\'s suffixes still read around it', () => {
    const upstream = new Set(['kimi-k2', 'kimi-k2-thinking', 'glm-max']);
    expect(parsePoolModel('kimi-k2-thinking', PREMIUM, upstream)).to.deep.equal({ upstreamModel: 'kimi-k2-thinking', thinking: false });
    expect(parsePoolModel('kimi-k2-thinking-max', PREMIUM, upstream)).to.deep.equal({ upstreamModel: 'kimi-k2-thinking', thinking: false, premium: 'max-suffix' });
    expect(parsePoolModel('kimi-k2-thinking-thinking', PREMIUM, upstream)).to.deep.equal({ upstreamModel: 'kimi-k2-thinking', thinking: true });
    expect(parsePoolModel('glm-max', PREMIUM, upstream)).to.deep.equal({ upstreamModel: 'glm-max', thinking: false });
    expect(parsePoolModel('kimi-k2-max', PREMIUM, upstream)).to.deep.equal({ upstreamModel: 'kimi-k2', thinking: false, premium: 'max-suffix' });
  });
});
