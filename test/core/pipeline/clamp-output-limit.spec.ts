import { expect } from 'chai';
import type { UpstreamRequest } from '../../../core/hooks/plugin-api';
import { outputCapIn, withOutputLimit } from '../../../core/pipeline/clamp-output-limit';

const chat = (json: Record<string, unknown>, mode: UpstreamRequest['mode'] = 'translate'): UpstreamRequest => ({
  mode,
  format: 'chat-completions',
  method: 'POST',
  path: '/v1/chat/completions',
  headers: {},
  body: Buffer.from(JSON.stringify(json)),
  stream: false,
});

describe('outputCapIn', () => {
  it('reads the cap OpenAI and DeepSeek state for a limit above it', () => {
    expect(outputCapIn('max_tokens is too large: 32000. This model supports at most 16384 completion tokens, whereas you provided 32000.')).to.equal(16384);
    expect(outputCapIn('Invalid max_tokens value, the valid range of max_tokens is [1, 8192]')).to.equal(8192);
    expect(outputCapIn('max_tokens is too large')).to.equal(undefined);
    expect(outputCapIn('supports at most 0 completion tokens')).to.equal(undefined);
  });
});

describe('withOutputLimit', () => {
  it('lowers the limit above the cap, keeping the rest of the body', () => {
    const lowered = withOutputLimit(chat({ model: 'gpt-4o', max_completion_tokens: 32000, messages: [] }), 16384);
    expect(JSON.parse(lowered!.body!.toString())).to.deep.equal({ model: 'gpt-4o', max_completion_tokens: 16384, messages: [] });
    expect(JSON.parse(withOutputLimit(chat({ max_tokens: 9000 }), 8192)!.body!.toString())).to.deep.equal({ max_tokens: 8192 });
  });

  it('answers undefined for a limit within the cap, no limit, or a passthrough request', () => {
    expect(withOutputLimit(chat({ max_completion_tokens: 1000 }), 16384)).to.equal(undefined);
    expect(withOutputLimit(chat({ model: 'x' }), 16384)).to.equal(undefined);
    expect(withOutputLimit(chat({ max_tokens: 32000 }, 'passthrough'), 16384)).to.equal(undefined);
  });
});
