import { expect } from 'chai';
import { isGatewayError, type GatewayError } from '../../../core/errors/gateway-error';
import { parseSearchRequest } from '../../../core/media-api/parse-search-request';

const PLATFORM = { name: 'openai', serves: ['search_query', 'open', 'find'] };

function failure(run: () => unknown): GatewayError {
  try {
    run();
  } catch (error) {
    if (isGatewayError(error)) return error;
    throw error;
  }
  throw new Error('expected a GatewayError');
}

describe('parseSearchRequest', () => {
  it('reads a Codex search call with its settings and options', () => {
    const parsed = parseSearchRequest(
      {
        id: 'search-session',
        model: 'gpt-5',
        input: 'find this',
        commands: { search_query: [{ q: 'OpenAI news', recency: 7, domains: ['openai.com'] }, { q: 'second' }], response_length: 'short' },
        settings: { search_context_size: 'low', filters: { allowed_domains: ['openai.com'] }, allowed_callers: ['direct'], external_web_access: true },
        max_output_tokens: 2500,
        future_field: { kept: true },
      },
      PLATFORM,
    );
    expect(parsed.queries).to.deep.equal([{ q: 'OpenAI news', recency: 7, domains: ['openai.com'] }, { q: 'second' }]);
    expect(parsed).to.deep.include({ id: 'search-session', model: 'gpt-5', responseLength: 'short', maxOutputTokens: 2500 });
    expect(parsed.settings.search_context_size).to.equal('low');
  });

  it('searches a text input when no command is given', () => {
    expect(parseSearchRequest({ model: 'm', input: '  latest node release ' }, PLATFORM).queries).to.deep.equal([{ q: 'latest node release' }]);
  });

  it('accepts empty lists of kinds it cannot serve and unknown option keys', () => {
    const parsed = parseSearchRequest({ model: 'm', commands: { search_query: [{ q: 'x' }], weather: [], future_option: 'x' } }, PLATFORM);
    expect(parsed.queries).to.have.length(1);
  });

  it('answers 400 naming a command kind the platform cannot serve', () => {
    const error = failure(() => parseSearchRequest({ model: 'm', commands: { search_query: [{ q: 'x' }], finance: [{ ticker: 'AAPL', type: 'equity' }] } }, PLATFORM));
    expect(error.status).to.equal(400);
    expect(error.param).to.equal('commands.finance');
    expect(error.message).to.include('"finance"').and.to.include('openai').and.to.include('search_query');
  });

  it('drops blank queries, and a call of blank queries only asks nothing (a no-op)', () => {
    expect(parseSearchRequest({ commands: { search_query: [{ q: ' ' }, { q: 'node' }] } }, PLATFORM).queries).to.deep.equal([{ q: 'node' }]);
    const noOp = parseSearchRequest({ commands: { search_query: [{ q: '' }] } }, PLATFORM);
    expect([noOp.queries, noOp.opens, noOp.finds]).to.deep.equal([[], [], []]);
  });

  it('answers 400 when there is nothing to search', () => {
    expect(failure(() => parseSearchRequest({ model: 'm', commands: {} }, PLATFORM)).param).to.equal('commands.search_query');
  });

  const bad: Array<[string, Record<string, unknown>, string]> = [
    ['a query without q', { commands: { search_query: [{ recency: 2 }] } }, 'commands.search_query[0].q'],
    ['an unknown response_length', { commands: { search_query: [{ q: 'x' }], response_length: 'huge' } }, 'commands.response_length'],
    ['an unknown search_context_size', { commands: { search_query: [{ q: 'x' }] }, settings: { search_context_size: 'max' } }, 'settings.search_context_size'],
    ['an open without ref_id', { commands: { open: [{ lineno: 3 }] } }, 'commands.open[0].ref_id'],
  ];
  for (const [name, body, field] of bad) {
    it(`answers 400 naming the field for ${name}`, () => {
      const error = failure(() => parseSearchRequest({ model: 'm', ...body }, PLATFORM));
      expect(error.status).to.equal(400);
      expect(error.param).to.equal(field);
    });
  }
});
