import { expect } from 'chai';
import { fileMimeFromName } from '../../../../core/codecs/shared/file-mime-from-name';

describe('fileMimeFromName', () => {
  const cases: Array<[string | undefined, string]> = [
    ['report.PDF', 'application/pdf'],
    ['notes.txt', 'text/plain'],
    ['data.csv', 'text/csv'],
    ['archive.tar.gz', 'application/pdf'],
    ['README', 'application/pdf'],
    [undefined, 'application/pdf'],
  ];
  for (const [name, mime] of cases) {
    it(`${String(name)} → ${mime}`, () => expect(fileMimeFromName(name)).to.equal(mime));
  }
});
