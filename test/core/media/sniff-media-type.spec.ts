import { expect } from 'chai';
import { sniffMediaType } from '../../../core/media/sniff-media-type';

function bytes(...parts: Array<string | number[]>): Uint8Array {
  const out: number[] = [];
  for (const part of parts) {
    if (typeof part === 'string') for (const ch of part) out.push(ch.charCodeAt(0));
    else out.push(...part);
  }
  while (out.length < 32) out.push(0);
  return Uint8Array.from(out);
}

const SIZE = [0x10, 0, 0, 0];

describe('sniffMediaType', () => {
  const cases: Array<[string, Uint8Array, string | undefined]> = [
    ['png', bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), 'image/png'],
    ['jpeg', bytes([0xff, 0xd8, 0xff, 0xe0]), 'image/jpeg'],
    ['webp', bytes('RIFF', SIZE, 'WEBPVP8 '), 'image/webp'],
    ['heic', bytes([0, 0, 0, 0x18], 'ftypheic'), 'image/heic'],
    ['heif (mif1)', bytes([0, 0, 0, 0x18], 'ftypmif1'), 'image/heif'],
    ['wav', bytes('RIFF', SIZE, 'WAVEfmt '), 'audio/wav'],
    ['mp3 with ID3', bytes('ID3', [4, 0]), 'audio/mpeg'],
    ['mp3 frame', bytes([0xff, 0xfb, 0x90, 0x64]), 'audio/mpeg'],
    ['aac adts', bytes([0xff, 0xf1, 0x50, 0x80]), 'audio/aac'],
    ['aiff', bytes('FORM', SIZE, 'AIFF'), 'audio/aiff'],
    ['ogg', bytes('OggS', [0, 2]), 'audio/ogg'],
    ['flac', bytes('fLaC'), 'audio/flac'],
    ['mp4', bytes([0, 0, 0, 0x20], 'ftypisom'), 'video/mp4'],
    ['mov', bytes([0, 0, 0, 0x14], 'ftypqt  '), 'video/quicktime'],
    ['3gpp', bytes([0, 0, 0, 0x14], 'ftyp3gp5'), 'video/3gpp'],
    ['mpeg program stream', bytes([0, 0, 1, 0xba]), 'video/mpeg'],
    ['avi', bytes('RIFF', SIZE, 'AVI LIST'), 'video/x-msvideo'],
    ['flv', bytes('FLV', [1, 5]), 'video/x-flv'],
    ['webm', bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84], 'webm'), 'video/webm'],
    ['wmv (asf)', bytes([0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11, 0xa6, 0xd9, 0x00, 0xaa, 0x00, 0x62, 0xce, 0x6c]), 'video/x-ms-wmv'],
    ['gif (named so it can be refused)', bytes('GIF89a'), 'image/gif'],
    ['pdf', bytes('%PDF-1.7'), 'application/pdf'],
    ['m4a', bytes([0, 0, 0, 0x20], 'ftypM4A '), 'audio/mp4'],
    ['plain text', bytes('hello world, not media'), undefined],
    ['empty', new Uint8Array(0), undefined],
  ];
  for (const [name, input, expected] of cases) {
    it(`recognises ${name}`, () => {
      expect(sniffMediaType(input)).to.equal(expected);
    });
  }
});
