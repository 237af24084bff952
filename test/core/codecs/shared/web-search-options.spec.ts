import { expect } from 'chai';
import { CODECS } from '../../../../core/codecs';

const LOCATION = { city: 'Berlin', region: 'Berlin', country: 'DE', timezone: 'Europe/Berlin' };

describe('web search options across formats (domains, location, search count)', () => {
  const chat = () =>
    CODECS['chat-completions'].decodeRequest({ model: 'm', messages: [{ role: 'user', content: 'news?' }], web_search_options: { user_location: { type: 'approximate', approximate: LOCATION } } });
  const responses = () =>
    CODECS.responses.decodeRequest({ model: 'm', input: 'news?', tools: [{ type: 'web_search', filters: { allowed_domains: ['reuters.com'] }, user_location: { type: 'approximate', ...LOCATION } }] });
  const messages = () =>
    CODECS.messages.decodeRequest({
      model: 'm',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'news?' }],
      tools: [{ type: 'web_search_20250305', name: 'web_search', allowed_domains: ['reuters.com'], user_location: { type: 'approximate', ...LOCATION }, max_uses: 3 }],
    });

  it("reach Claude's web search tool from chat and Responses clients", () => {
    const fromChat = CODECS.messages.encodeRequest(chat()).value as { tools: unknown[] };
    expect(fromChat.tools).to.deep.equal([{ type: 'web_search_20250305', name: 'web_search', user_location: { type: 'approximate', ...LOCATION } }]);
    const fromResponses = CODECS.messages.encodeRequest(responses()).value as { tools: unknown[] };
    expect(fromResponses.tools).to.deep.equal([{ type: 'web_search_20250305', name: 'web_search', allowed_domains: ['reuters.com'], user_location: { type: 'approximate', ...LOCATION } }]);
  });

  it("reach OpenAI's web search tool from a Messages client (allow list and location; it has no search count)", () => {
    const body = CODECS.responses.encodeRequest(messages()).value as { tools: unknown[] };
    expect(body.tools).to.deep.equal([{ type: 'web_search', filters: { allowed_domains: ['reuters.com'] }, user_location: { type: 'approximate', ...LOCATION } }]);
  });

  it('go back to a Messages upstream as the tool the Messages client sent', () => {
    const body = CODECS.messages.encodeRequest(messages()).value as { tools: unknown[] };
    expect(body.tools).to.deep.equal([{ type: 'web_search_20250305', name: 'web_search', allowed_domains: ['reuters.com'], user_location: { type: 'approximate', ...LOCATION }, max_uses: 3 }]);
  });
});
