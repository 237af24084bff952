import { expect } from 'chai';
import { extractCredential } from '../../../core/auth/extract-credential';
import { createKeyChecker } from '../../../core/auth/create-key-checker';

describe('extractCredential', () => {
  const cases: Array<[string, Parameters<typeof extractCredential>[0], string | undefined]> = [
    ['Authorization: Bearer', { path: '/p/v1/chat/completions', headers: { authorization: 'Bearer lic-1' }, query: {} }, 'lic-1'],
    ['lower-case bearer', { path: '/p/v1/x', headers: { authorization: 'bearer lic-1' }, query: {} }, 'lic-1'],
    ['bare Authorization', { path: '/p/v1/chat/completions', headers: { authorization: 'lic-2' }, query: {} }, 'lic-2'],
    ['x-api-key', { path: '/p/v1/messages', headers: { 'x-api-key': 'lic-3' }, query: {} }, 'lic-3'],
    ['x-goog-api-key', { path: '/p/v1beta/models/m:generateContent', headers: { 'x-goog-api-key': 'lic-4' }, query: {} }, 'lic-4'],
    ['?key= on /v1beta', { path: '/p/v1beta/models/m:generateContent', headers: {}, query: { key: 'lic-5' } }, 'lic-5'],
    ['?key= under a v1beta segment further down is ignored', { path: '/p/v1/videos/v1beta/content', headers: {}, query: { key: 'lic-7' } }, undefined],
    ['?key= elsewhere is ignored', { path: '/p/v1/chat/completions', headers: {}, query: { key: 'lic-6' } }, undefined],
    ['nothing', { path: '/p/v1/chat/completions', headers: {}, query: {} }, undefined],
    // Only HTTP whitespace is trimmed: a header of one 0xA0 byte (U+00A0) is that character, not an empty credential.
    ['a no-break space kept', { path: '/p/v1/x', headers: { authorization: '\u00a0' }, query: {} }, '\u00a0'],
    ['x-api-key of a no-break space kept', { path: '/p/v1/messages', headers: { 'x-api-key': '\u00a0' }, query: {} }, '\u00a0'],
    ['spaces and tabs around a bearer trimmed', { path: '/p/v1/x', headers: { authorization: '\tBearer \t lic-8 \t' }, query: {} }, 'lic-8'],
    ['a blank x-api-key is none', { path: '/p/v1/messages', headers: { 'x-api-key': ' \t' }, query: {} }, undefined],
    // Inner whitespace is the key's own: a long run of it is kept (and read once, not rescanned per position).
    ['a long inner run of spaces kept', { path: '/p/v1/messages', headers: { 'x-api-key': `x${' '.repeat(16_000)}x ` }, query: {} }, `x${' '.repeat(16_000)}x`],
  ];
  for (const [name, input, expected] of cases) {
    it(name, () => expect(extractCredential(input)).to.equal(expected));
  }
});

describe('createKeyChecker', () => {
  const check = createKeyChecker(['lic-a', 'lic-bbbbbbbbbbbbbbbbbbbbb']);
  it('accepts known keys of any length', () => {
    expect(check('lic-a')).to.equal(true);
    expect(check('lic-bbbbbbbbbbbbbbbbbbbbb')).to.equal(true);
  });
  it('rejects unknown, prefix and empty keys', () => {
    expect(check('lic-')).to.equal(false);
    expect(check('lic-a ')).to.equal(false);
    expect(check('')).to.equal(false);
    expect(check(undefined)).to.equal(false);
  });
  it('rejects everything when no key is configured', () => {
    expect(createKeyChecker([])('anything')).to.equal(false);
  });
  it('never matches through an empty configured key', () => {
    const withEmpty = createKeyChecker(['', 'lic-a']);
    expect(withEmpty('')).to.equal(false);
    expect(withEmpty('lic-a')).to.equal(true);
  });
});
