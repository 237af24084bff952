import { expect } from 'chai';
import { isDataUri, parseDataUri, toDataUri } from '../../../../core/codecs/shared/parse-data-uri';

describe('parseDataUri', () => {
  const cases: Array<[string, ReturnType<typeof parseDataUri>]> = [
    ['data:image/png;base64,iVBOR', { mediaType: 'image/png', data: 'iVBOR' }],
    ['data:Image/PNG;base64,AA==', { mediaType: 'image/png', data: 'AA==' }],
    ['data:audio/wav;codecs=1;base64,UklG', { mediaType: 'audio/wav', data: 'UklG' }],
    ['data:;base64,AAAA', { mediaType: 'application/octet-stream', data: 'AAAA' }],
    ['data:text/plain,hello', undefined],
    ['https://example.com/a.png', undefined],
    ['data:image/png;base64', undefined],
  ];
  for (const [input, expected] of cases) {
    it(`${input.slice(0, 40)} → ${JSON.stringify(expected)}`, () => {
      expect(parseDataUri(input)).to.deep.equal(expected);
    });
  }

  it('toDataUri is its inverse', () => {
    expect(parseDataUri(toDataUri('image/webp', 'UklGR'))).to.deep.equal({ mediaType: 'image/webp', data: 'UklGR' });
  });

  it('isDataUri tells any data: URI, readable or not, from a URL', () => {
    expect(['data:image/png;base64,AA==', 'data:image/png;base64', 'data:text/plain,hi'].map(isDataUri)).to.deep.equal([true, true, true]);
    expect(['https://example.com/a.png', 'AAAA', ''].map(isDataUri)).to.deep.equal([false, false, false]);
  });
});
