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

  it('reads the cited sentence of a degenerate answer in bounded work (100,000 spaces, unclosed brackets)', () => {
    const text = `Intro. A cited claim [a link](https://a.test/x)${' '.repeat(100_000)}${'['.repeat(50_000)}(`;
    const answer = {
      status: 'completed',
      output: [{ type: 'message', content: [{ type: 'output_text', text, annotations: [{ type: 'url_citation', url: 'https://a.test/x', title: 'A', start_index: text.length, end_index: text.length }] }] }],
    };
    const { sources } = fromResponsesSearch(answer);
    expect(sources[0]).to.include({ url: 'https://a.test/x', title: 'A' });
    expect((sources[0] as { snippet: string }).snippet.length).to.be.at.most(300);
    const plain = fromResponsesSearch({
      status: 'completed',
      output: [{ type: 'message', content: [{ type: 'output_text', text: 'First. A cited [link](https://a.test/) claim (', annotations: [{ type: 'url_citation', url: 'https://a.test/', start_index: 45, end_index: 45 }] }] }],
    });
    expect(plain.sources[0]).to.deep.include({ snippet: 'A cited link claim' });
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
