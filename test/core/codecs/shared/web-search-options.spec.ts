import { expect } from 'chai';
import { CODECS } from '../../../../core/codecs';
import { isGatewayError } from '../../../../core/errors/gateway-error';

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

  /** The 400's param when decoding refuses the body, else 'decoded'. */
  function decodeOutcome(decode: () => unknown): string {
    try {
      decode();
      return 'decoded';
    } catch (error) {
      return isGatewayError(error) && error.status === 400 ? `400 ${String(error.param)}` : String(error);
    }
  }

  it('refuse a limit of the wrong shape rather than search without it, naming the field', () => {
    const respond = (tool: Record<string, unknown>) => () => CODECS.responses.decodeRequest({ model: 'm', input: 'x', tools: [{ type: 'web_search', ...tool }] });
    expect(decodeOutcome(respond({ filters: { allowed_domains: 'example.com' } }))).to.equal('400 tools[0].filters.allowed_domains');
    expect(decodeOutcome(respond({ filters: { allowed_domains: ['example.com', 5] } }))).to.equal('400 tools[0].filters.allowed_domains');
    expect(decodeOutcome(respond({ filters: 'example.com' }))).to.equal('400 tools[0].filters');
    expect(decodeOutcome(respond({ user_location: 'Paris' }))).to.equal('400 tools[0].user_location');
    expect(decodeOutcome(respond({ filters: null, user_location: null }))).to.equal('decoded');
    const chatWith = (options: unknown) => () => CODECS['chat-completions'].decodeRequest({ model: 'm', messages: [{ role: 'user', content: 'x' }], web_search_options: options });
    expect(decodeOutcome(chatWith({ user_location: 'Paris' }))).to.equal('400 web_search_options.user_location');
    expect(decodeOutcome(chatWith({ user_location: { type: 'approximate', approximate: { city: 5 } } }))).to.equal('400 web_search_options.user_location.approximate.city');
    const anthropic = (tool: Record<string, unknown>) => () =>
      CODECS.messages.decodeRequest({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'x' }], tools: [{ type: 'web_search_20250305', name: 'web_search', ...tool }] });
    expect(decodeOutcome(anthropic({ max_uses: 0 }))).to.equal('400 tools[0].max_uses');
    expect(decodeOutcome(anthropic({ blocked_domains: [null] }))).to.equal('400 tools[0].blocked_domains');
  });
});
