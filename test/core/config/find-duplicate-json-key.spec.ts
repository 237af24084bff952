import { expect } from 'chai';
import { findDuplicateJsonKey } from '../../../core/config/find-duplicate-json-key';

describe('findDuplicateJsonKey', () => {
  it('finds a key written twice in one object, with the object\'s path and the second one\'s line', () => {
    expect(findDuplicateJsonKey('{"a": 1,\n "a": 2}')).to.deep.equal({ path: '', key: 'a', line: 2 });
    expect(findDuplicateJsonKey('{\r"a": 1,\r\n\r "a": 2}'), 'CR and CRLF line ends').to.deep.include({ line: 4 });
    expect(findDuplicateJsonKey('{"platforms": {"x": {}, "y": {"k": [{"apiKey": "1", "apiKey": "2"}]}}}')).to.deep.equal({ path: 'platforms.y.k[]', key: 'apiKey', line: 1 });
  });

  it('reads escaped keys as JSON.parse does, and ignores keys repeated in other objects or inside strings', () => {
    expect(findDuplicateJsonKey('{"a\\u0062": 1, "ab": 2}')).to.deep.include({ key: 'ab' });
    expect(findDuplicateJsonKey('{"a": {"k": 1}, "b": {"k": 1}, "c": [{"k": 1}, {"k": 2}]}')).to.equal(undefined);
    expect(findDuplicateJsonKey('{"a": "{\\"a\\": 1, \\"a\\": 2}", "b": ["a", "a"]}')).to.equal(undefined);
  });
});
