import { expect } from 'chai';
import type { UpstreamRequest } from '../../../core/hooks/plugin-api';
import { lowerMessagesLimit, outputCapIn, withOutputLimit } from '../../../core/pipeline/clamp-output-limit';

const translated = (format: UpstreamRequest['format'], json: Record<string, unknown>, mode: UpstreamRequest['mode'] = 'translate'): UpstreamRequest => ({
  mode,
  format,
  method: 'POST',
  path: '/v1/x',
  headers: {},
  body: Buffer.from(JSON.stringify(json)),
  stream: false,
});
const chat = (json: Record<string, unknown>, mode: UpstreamRequest['mode'] = 'translate'): UpstreamRequest => translated('chat-completions', json, mode);
const bodyOf = (request: UpstreamRequest | undefined): unknown => JSON.parse(request!.body!.toString());

describe('outputCapIn', () => {
  it("reads the model's cap as OpenAI, DeepSeek, Anthropic and Gemini state it (lasting)", () => {
    expect(outputCapIn('max_tokens is too large: 32000. This model supports at most 16384 completion tokens, whereas you provided 32000.')).to.deep.equal({ cap: 16384, lasting: true });
    expect(outputCapIn('Invalid max_tokens value, the valid range of max_tokens is [1, 8192]')).to.deep.equal({ cap: 8192, lasting: true });
    expect(outputCapIn('max_tokens: 100000 > 64000, which is the maximum allowed number of output tokens for claude-sonnet-4-5')).to.deep.equal({ cap: 64000, lasting: true });
    // Gemini's range is exclusive at the top.
    expect(outputCapIn('Unable to submit request because it has a maxOutputTokens value of 655360 but the supported range is from 1 (inclusive) to 65537 (exclusive). Update the value and try again.')).to.deep.equal({ cap: 65536, lasting: true });
  });

  it('reads the room the input leaves in the context window (vLLM, Anthropic), for this call only', () => {
    expect(outputCapIn("'max_tokens' or 'max_completion_tokens' is too large: 32000. This model's maximum context length is 32768 tokens and your request has 10694 input tokens (32000 > 32768 - 10694).")).to.deep.equal({ cap: 22074, lasting: false });
    expect(outputCapIn("This model's maximum context length is 32768 tokens. However, you requested 40000 tokens (8000 in the messages, 32000 in the completion). Please reduce the length of the messages or completion.")).to.deep.equal({ cap: 24768, lasting: false });
    expect(outputCapIn("This model's maximum context length is 32768 tokens. However, you requested 32000 output tokens and your prompt contains at least 769 input tokens, for a total of at least 32769 tokens. Please reduce the length of the input prompt or the number of requested output tokens. (parameter=input_tokens, value=769)")).to.deep.equal({ cap: 31999, lasting: false });
    expect(outputCapIn('input length and `max_tokens` exceed context limit: 188240 + 21333 > 200000, decrease input length or `max_tokens` and try again')).to.deep.equal({ cap: 11760, lasting: false });
  });

  it('reads no cap where none is stated, or where the input leaves less than 1024 tokens (the client compacts on that error)', () => {
    expect(outputCapIn('max_tokens is too large')).to.equal(undefined);
    expect(outputCapIn('supports at most 0 completion tokens')).to.equal(undefined);
    expect(outputCapIn("This model's maximum context length is 32768 tokens and your request has 32000 input tokens (4096 > 32768 - 32000).")).to.equal(undefined);
    expect(outputCapIn('prompt is too long: 210000 tokens > 200000 maximum')).to.equal(undefined);
  });
});

describe('withOutputLimit', () => {
  it('lowers a chat limit above the cap, keeping the rest of the body', () => {
    expect(bodyOf(withOutputLimit(chat({ model: 'gpt-4o', max_completion_tokens: 32000, messages: [] }), 16384))).to.deep.equal({ model: 'gpt-4o', max_completion_tokens: 16384, messages: [] });
    expect(bodyOf(withOutputLimit(chat({ max_tokens: 9000 }), 8192))).to.deep.equal({ max_tokens: 8192 });
  });

  it("lowers a Messages body's max_tokens and a Gemini body's maxOutputTokens", () => {
    expect(bodyOf(withOutputLimit(translated('messages', { model: 'claude-x', max_tokens: 100000, messages: [] }), 64000))).to.deep.equal({ model: 'claude-x', max_tokens: 64000, messages: [] });
    expect(bodyOf(withOutputLimit(translated('gemini', { contents: [], generationConfig: { maxOutputTokens: 100000, temperature: 1 } }), 65536))).to.deep.equal({ contents: [], generationConfig: { maxOutputTokens: 65536, temperature: 1 } });
  });

  it('answers undefined for a limit within the cap, no limit, a passthrough request or a format without a limit', () => {
    expect(withOutputLimit(chat({ max_completion_tokens: 1000 }), 16384)).to.equal(undefined);
    expect(withOutputLimit(chat({ model: 'x' }), 16384)).to.equal(undefined);
    expect(withOutputLimit(chat({ max_tokens: 32000 }, 'passthrough'), 16384)).to.equal(undefined);
    expect(withOutputLimit(translated('gemini', { contents: [] }), 8192)).to.equal(undefined);
    expect(withOutputLimit(translated('other', { max_tokens: 32000 }), 8192)).to.equal(undefined);
  });
});

describe('lowerMessagesLimit', () => {
  it('keeps a thinking budget under the lowered max_tokens: half the cap when it no longer fits, dropped below the least budget', () => {
    const fits = { max_tokens: 100000, thinking: { type: 'enabled', budget_tokens: 10000 } };
    expect(lowerMessagesLimit(fits, 64000)).to.equal(true);
    expect(fits).to.deep.equal({ max_tokens: 64000, thinking: { type: 'enabled', budget_tokens: 10000 } });
    const over = { max_tokens: 100000, thinking: { type: 'enabled', budget_tokens: 80000 } };
    lowerMessagesLimit(over, 32000);
    expect(over).to.deep.equal({ max_tokens: 32000, thinking: { type: 'enabled', budget_tokens: 16000 } });
    const tight = { max_tokens: 8000, thinking: { type: 'enabled', budget_tokens: 4000 } };
    lowerMessagesLimit(tight, 1500);
    expect(tight).to.deep.equal({ max_tokens: 1500 });
    const adaptive = { max_tokens: 100000, thinking: { type: 'adaptive' } };
    lowerMessagesLimit(adaptive, 64000);
    expect(adaptive).to.deep.equal({ max_tokens: 64000, thinking: { type: 'adaptive' } });
    expect(lowerMessagesLimit({ max_tokens: 1000 }, 64000)).to.equal(false);
  });
});
