import { expect } from 'chai';
import { describeRefusedMediaType, GEMINI_MEDIA_TYPES, toGeminiMediaType } from '../src/gemini-media-types';

describe('toGeminiMediaType', () => {
  it('accepts exactly the 19 formats of spec 4.1 under their registered names', () => {
    expect(GEMINI_MEDIA_TYPES).to.have.length(19);
    for (const type of GEMINI_MEDIA_TYPES) expect(toGeminiMediaType(type)).to.equal(type);
  });

  const aliases: Array<[string, string]> = [
    ['image/jpg', 'image/jpeg'],
    ['IMAGE/PNG', 'image/png'],
    ['audio/mp3', 'audio/mpeg'],
    ['audio/x-wav', 'audio/wav'],
    ['audio/wave', 'audio/wav'],
    ['audio/x-aiff', 'audio/aiff'],
    ['audio/x-flac', 'audio/flac'],
    ['audio/ogg; codecs=opus', 'audio/ogg'],
    ['video/mov', 'video/quicktime'],
    ['video/avi', 'video/x-msvideo'],
    ['video/flv', 'video/x-flv'],
    ['video/mpg', 'video/mpeg'],
    ['video/wmv', 'video/x-ms-wmv'],
    ['video/3gp', 'video/3gpp'],
  ];
  for (const [input, expected] of aliases) {
    it(`maps ${input} to ${expected}`, () => {
      expect(toGeminiMediaType(input)).to.equal(expected);
    });
  }

  for (const refused of ['image/gif', 'image/bmp', 'image/tiff', 'image/svg+xml', 'image/avif', 'audio/midi', 'audio/mp4', 'video/x-matroska', 'application/pdf', 'text/plain', 'application/octet-stream', '']) {
    it(`refuses ${JSON.stringify(refused)}`, () => {
      expect(toGeminiMediaType(refused)).to.equal(undefined);
    });
  }

  it('names the refused type and what is accepted', () => {
    expect(describeRefusedMediaType('Image/GIF; x=1')).to.match(/^image\/gif is not an accepted media type on this platform; accepted: image\/png, image\/jpeg/);
  });
});
