import { expect } from 'chai';
import { createGroundingCollector, decodeGrounding, MAX_CITATIONS } from '../../../../core/codecs/gemini/decode-grounding';

describe('decodeGrounding', () => {
  const text = 'x'.repeat(4000);
  const pages = Array.from({ length: 200 }, (_, i) => ({ web: { uri: `https://example.com/${i}/${'p'.repeat(1000)}`, title: `page ${i}` } }));
  const supports = Array.from({ length: 2000 }, (_, i) => ({ segment: { startIndex: i, endIndex: i + 1 }, groundingChunkIndices: pages.map((_, page) => page) }));

  it('gives at most MAX_CITATIONS citations, the first ones, however many spans cite however many pages', () => {
    const { citations, sources } = decodeGrounding({ groundingChunks: pages, groundingSupports: supports }, text);
    expect(citations).to.have.length(MAX_CITATIONS);
    expect(citations[0]).to.deep.include({ start: 0, end: 1, title: 'page 0' });
    expect(citations.at(-1)).to.deep.include({ start: 4, end: 5, title: 'page 199' });
    expect(sources).to.have.length(200);
  });

  it("keeps a streamed answer's citations, gathered chunk by chunk, under the same bound", () => {
    const collector = createGroundingCollector();
    for (let chunk = 0; chunk < 5; chunk++) {
      collector.add(decodeGrounding({ groundingChunks: pages, groundingSupports: supports.slice(chunk * 10, chunk * 10 + 10) }, text));
    }
    expect(collector.result().citations).to.have.length(MAX_CITATIONS);
  });
});
