import { expect } from 'chai';
import { parseDataUri, toDataUri } from '../../../../core/codecs/shared/parse-data-uri';

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
});
