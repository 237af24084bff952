import { expect } from 'chai';
import { buildSearchPrompt, buildSearchResponse, buildSearchResults } from '../../../core/media-api/search-response';

describe('buildSearchResults', () => {
  it('numbers one result per URL as turn<N>search<M>, with domain, title and snippet', () => {
    const results = buildSearchResults(
      [
        { url: 'https://www.example.com/a#part', title: 'A', snippet: ' first ' },
        { url: 'https://nodejs.org/en', snippet: 'node' },
        { url: 'https://www.example.com/a#other', title: 'A again', snippet: 'dup' },
        { url: 'https://nodejs.org/en', title: 'Node' },
        { url: 'not a url' },
        { url: 'ftp://files.example.com/x' },
      ],
      2,
    );
    expect(results).to.deep.equal([
      { type: 'text_result', domain: 'example.com', ref_id: 'turn2search0', snippet: 'first', title: 'A', url: 'https://www.example.com/a#part' },
      { type: 'text_result', domain: 'nodejs.org', ref_id: 'turn2search1', snippet: 'node', title: 'nodejs.org', url: 'https://nodejs.org/en' },
    ]);
  });
});

describe('buildSearchResponse', () => {
  it('answers the text with the sources listed by ref id, and encrypted_output null', () => {
    const results = buildSearchResults([{ url: 'https://example.com/', title: 'Example' }], 0);
    expect(buildSearchResponse(' The answer. ', results)).to.deep.equal({
      output: 'The answer.\n\nSources:\n[turn0search0] Example (example.com): https://example.com/',
      encrypted_output: null,
      results,
    });
  });

  it('answers the bare text when there is no source', () => {
    expect(buildSearchResponse('Nothing found.', []).output).to.equal('Nothing found.');
  });
});

describe('buildSearchPrompt', () => {
  it('lists every command of the call, with its limits, for one combined answer', () => {
    const prompt = buildSearchPrompt({
      queries: [{ q: 'node 22 release', recency: 30, domains: ['nodejs.org'] }, { q: 'bun vs node' }],
      opens: [{ ref_id: 'https://example.com/page', lineno: 40 }],
      finds: [{ ref_id: 'https://example.com/page', pattern: 'LTS' }],
      responseLength: 'short',
      input: 'user asked about runtimes',
      settings: { filters: { blocked_domains: ['spam.example'] } },
    });
    expect(prompt).to.include('1. Search the web for: "node 22 release" (only on nodejs.org; published in the last 30 days)');
    expect(prompt).to.include('2. Search the web for: "bun vs node"');
    expect(prompt).to.include('3. Open the page https://example.com/page (from line 40)');
    expect(prompt).to.include('4. Find "LTS" in the page https://example.com/page');
    expect(prompt).to.include('Do not use these sites: spam.example.');
    expect(prompt).to.include('Context of the request: user asked about runtimes');
    expect(prompt).to.include('briefly');
  });
});
