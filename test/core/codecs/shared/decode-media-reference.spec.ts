import { expect } from 'chai';
import { decodeMediaReference } from '../../../../core/codecs/shared/decode-media-reference';

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]).toString('base64');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01]).toString('base64');

describe('decodeMediaReference', () => {
  it("takes an image's type from its bytes where they contradict the data URI's (Anthropic refuses a mislabelled image)", () => {
    expect(decodeMediaReference(`data:image/png;base64,${JPEG}`, 'p')).to.deep.equal({ kind: 'base64', mediaType: 'image/jpeg', data: JPEG });
    expect(decodeMediaReference(`data:image/png;base64,${PNG}`, 'p')).to.deep.equal({ kind: 'base64', mediaType: 'image/png', data: PNG });
    // Bytes of no known type, or a type that is no image: as declared.
    expect(decodeMediaReference('data:image/webp;base64,AAAAAAAAAAAAAAAAAAAA', 'p')).to.include({ mediaType: 'image/webp' });
    expect(decodeMediaReference(`data:application/pdf;base64,${JPEG}`, 'p')).to.include({ mediaType: 'application/pdf' });
  });

  it('reads bare base64 by its bytes and leaves URLs to the platform', () => {
    expect(decodeMediaReference(PNG, 'p')).to.deep.equal({ kind: 'base64', mediaType: 'image/png', data: PNG });
    expect(decodeMediaReference('https://example.com/cat.png', 'p')).to.deep.equal({ kind: 'url', url: 'https://example.com/cat.png' });
  });
});
