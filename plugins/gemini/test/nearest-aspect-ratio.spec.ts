import { expect } from 'chai';
import { nearestAspectRatio } from '../src/nearest-aspect-ratio';

describe('nearestAspectRatio', () => {
  const cases: Array<[string, string | undefined]> = [
    ['1024x1024', '1:1'],
    ['1536x1024', '3:2'],
    ['1024x1536', '2:3'],
    ['1792x1024', '16:9'],
    ['1024x1792', '9:16'],
    ['1920x1080', '16:9'],
    ['2560x1080', '21:9'],
    ['1280x1024', '5:4'],
    ['16:9', '16:9'],
    ['4:5', '4:5'],
    ['1.91:1', '16:9'],
    ['800 × 600', '4:3'],
    ['auto', undefined],
    ['0x100', undefined],
    ['', undefined],
  ];
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input)} → ${String(expected)}`, () => {
      expect(nearestAspectRatio(input)).to.equal(expected);
    });
  }

  it('takes another family\'s list (Imagen, Veo)', () => {
    expect(nearestAspectRatio('1536x1024', ['1:1', '3:4', '4:3', '9:16', '16:9'])).to.equal('4:3');
    expect(nearestAspectRatio('1024x1024', ['16:9', '9:16'])).to.equal('16:9');
    expect(nearestAspectRatio('720x1280', ['16:9', '9:16'])).to.equal('9:16');
  });
});
