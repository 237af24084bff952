import { expect } from 'chai';
import { mediaKindFromMime } from '../../../../core/codecs/shared/media-kind-from-mime';

describe('mediaKindFromMime', () => {
  const cases: Array<[string, string]> = [
    ['image/png', 'image'],
    ['IMAGE/JPEG', 'image'],
    ['audio/mpeg', 'audio'],
    ['video/mp4', 'video'],
    ['application/pdf', 'file'],
    ['text/plain', 'file'],
    ['nonsense', 'file'],
  ];
  for (const [mime, kind] of cases) {
    it(`${mime} → ${kind}`, () => expect(mediaKindFromMime(mime)).to.equal(kind));
  }
});
