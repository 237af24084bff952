import { expect } from 'chai';
import { fromResponsesSearch } from '../src/from-responses-search';
import { webSearchAnswer } from './web-search-answer';

describe('fromResponsesSearch', () => {
  it('takes the answer text, cited sources with the cited sentence, then consulted pages', () => {
    const { answer, sources } = fromResponsesSearch(webSearchAnswer());
    expect(answer).to.match(/^Node\.js 24 became LTS/);
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

  it('answers an empty text when the model wrote nothing', () => {
    expect(fromResponsesSearch({ output: [], status: 'completed' })).to.deep.equal({ answer: '', sources: [] });
  });
});
