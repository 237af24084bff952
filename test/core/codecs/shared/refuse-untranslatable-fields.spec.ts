import { expect } from 'chai';
import { CODECS } from '../../../../core/codecs';
import { isGatewayError } from '../../../../core/errors/gateway-error';

const chat = (extra: Record<string, unknown>) => CODECS['chat-completions'].decodeRequest({ model: 'm', messages: [{ role: 'user', content: 'hi' }], ...extra });

describe('fields another format cannot answer (chat logprobs and audio output, Gemini cachedContent)', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['logprobs', { logprobs: true, top_logprobs: 3 }, 'logprobs'],
    ['top_logprobs alone', { top_logprobs: 2 }, 'top_logprobs'],
    ['audio output', { modalities: ['text', 'audio'], audio: { voice: 'alloy', format: 'wav' } }, 'modalities[1]'],
  ];
  for (const target of ['messages', 'gemini', 'responses'] as const) {
    for (const [name, fields, param] of cases) {
      it(`${target} upstream: ${name} is a 400 naming ${param}`, () => {
        let caught: unknown;
        try {
          CODECS[target].encodeRequest(chat(fields));
        } catch (error) {
          caught = error;
        }
        expect(isGatewayError(caught) && caught.code).to.equal('GW_INVALID_REQUEST');
        expect(isGatewayError(caught) && caught.param).to.equal(param);
      });
    }
  }

  it('asking for none of them, or a chat upstream, is no refusal', () => {
    expect(() => CODECS.messages.encodeRequest(chat({ logprobs: false, top_logprobs: 0, modalities: ['text'] }))).not.to.throw();
    expect(CODECS['chat-completions'].encodeRequest(chat({ logprobs: true, top_logprobs: 3 })).value).to.include({ logprobs: true, top_logprobs: 3 });
  });

  it('Gemini cachedContent is a 400 on every other upstream, and goes to a Gemini one', () => {
    const gemini = CODECS.gemini.decodeRequest({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }], cachedContent: 'cachedContents/abc123' }, { model: 'm', stream: false });
    for (const target of ['messages', 'chat-completions', 'responses'] as const) {
      expect(() => CODECS[target].encodeRequest(gemini), target).to.throw(/^cachedContent: content cached at Google is not available on this platform/);
    }
    expect(CODECS.gemini.encodeRequest(gemini).value).to.include({ cachedContent: 'cachedContents/abc123' });
  });
});
