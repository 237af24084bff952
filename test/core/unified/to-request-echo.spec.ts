import { expect } from 'chai';
import { CODECS } from '../../../core/codecs';
import { toRequestEcho } from '../../../core/unified/to-request-echo';

describe('toRequestEcho', () => {
  const unified = CODECS['chat-completions'].decodeRequest({
    model: 'gpt-4o-mini',
    messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'hi' }],
    temperature: 0.2,
    stream: true,
    stream_options: { include_usage: true },
    tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
  });

  it('keeps every setting and drops the conversation', () => {
    const echo = toRequestEcho(unified);
    expect(echo).to.not.have.property('messages');
    const { messages: _conversation, ...settings } = unified;
    expect(echo).to.deep.equal(settings);
    expect(echo).to.include({ model: 'gpt-4o-mini', temperature: 0.2, stream: true, streamUsage: true });
    expect(echo.system).to.deep.equal(['be brief']);
  });

  it('leaves the request itself whole', () => {
    toRequestEcho(unified);
    expect(unified.messages).to.have.length(1);
  });

  it('is enough for a response encoder: the Responses echo of instructions and tools', () => {
    const responses = CODECS.responses.decodeRequest({ model: 'gpt-4o-mini', instructions: 'be brief', input: 'hi', tools: [{ type: 'function', name: 'f', parameters: { type: 'object' } }] });
    const body = CODECS.responses.encodeResponse(
      { id: 'r1', model: 'gpt-4o-mini', created: 1, content: [{ type: 'text', text: 'ok' }], finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } },
      toRequestEcho(responses),
    ) as Record<string, unknown>;
    expect(body.instructions).to.equal('be brief');
    expect(body.tools).to.have.length(1);
  });
});
