import { expect } from 'chai';
import { fromResponsesSearch } from '../src/from-responses-search';
import { webSearchAnswer } from './web-search-answer';

describe('fromResponsesSearch', () => {
  it('takes the answer text, cited sources with the cited sentence, then consulted pages', () => {
    const { text, sources } = fromResponsesSearch(webSearchAnswer());
    expect(text).to.match(/^Node\.js 24 became LTS/);
    expect(sources).to.deep.equal([
      { url: 'https://nodejs.org/en/blog/release/v24.11.0', title: 'Node.js v24.11.0', snippet: 'Node.js 24 became LTS in October 2025' },
      { url: 'https://bun.sh/blog/bun-v1.3', title: 'Bun v1.3', snippet: 'It ships Redis too' },
      { url: 'https://nodejs.org/en/blog/release/v24.11.0' },
      { url: 'https://github.com/nodejs/release' },
    ]);
  });

  it('answers 502 for a body that is not a Responses object, and for a failed one without text', () => {
    expect(() => fromResponsesSearch({ data: [] })).to.throw(/not a Responses object/);
    expect(() => fromResponsesSearch({ output: [], status: 'failed', error: { message: 'search backend down' } })).to.throw(/search backend down/);
  });

  it('answers 502 naming why it stopped when the model wrote nothing and cited nothing', () => {
    expect(() => fromResponsesSearch({ output: [], status: 'completed' })).to.throw('upstream search answered neither text nor sources (status completed)');
    expect(() => fromResponsesSearch({ output: [{ type: 'reasoning', summary: [] }], status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } })).to.throw(
      'upstream search answered neither text nor sources (status incomplete: max_output_tokens)',
    );
  });

  it('keeps the consulted pages when the model wrote nothing', () => {
    const answer = { status: 'completed', output: [{ type: 'web_search_call', action: { sources: [{ url: 'https://a.test/' }] } }] };
    expect(fromResponsesSearch(answer)).to.deep.equal({ text: '', sources: [{ url: 'https://a.test/' }] });
  });

  const misshapen: Array<[string, unknown, string]> = [
    ['annotations that are an object', { type: 'message', content: [{ type: 'output_text', text: 'x', annotations: {} }] }, 'x\n\nkept'],
    ['content that is a string', { type: 'message', content: 'x' }, 'kept'],
    ['sources that are an object', { type: 'web_search_call', action: { sources: {} } }, 'kept'],
    ['a null item', null, 'kept'],
    ['a citation with numbers for url and title', { type: 'message', content: [{ type: 'output_text', text: 'x', annotations: [{ type: 'url_citation', url: 5, title: 5 }] }] }, 'x\n\nkept'],
  ];
  for (const [what, item, text] of misshapen) {
    it(`skips ${what} instead of failing`, () => {
      const answer = { status: 'completed', output: [item, { type: 'message', content: [{ type: 'output_text', text: 'kept' }] }] };
      expect(fromResponsesSearch(answer)).to.deep.equal({ text, sources: [] });
    });
  }
});
