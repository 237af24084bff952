import { expect } from 'chai';
import { compilePatterns } from '../src/compile-patterns';

const DEFAULTS = ['default-one', 'default-two'];

describe('token-pool compilePatterns', () => {
  it('reads one case-insensitive pattern per line of a string, ignoring blank lines', () => {
    const patterns = compilePatterns('slow down\n\n  account (?:locked|frozen)  \r\n', DEFAULTS, 'f');
    expect(patterns.map(String)).to.deep.equal(['/slow down/i', '/account (?:locked|frozen)/i']);
    expect(patterns[1].test('Your ACCOUNT FROZEN for review')).to.equal(true);
  });

  it('reads one pattern per array entry', () => {
    expect(compilePatterns(['a+', 'b?'], DEFAULTS, 'f').map(String)).to.deep.equal(['/a+/i', '/b?/i']);
  });

  for (const empty of [undefined, '', '\n  \n', [], ['', '  ']]) {
    it(`uses the built-in defaults for ${JSON.stringify(empty)}`, () => {
      expect(compilePatterns(empty, DEFAULTS, 'f').map(String)).to.deep.equal(['/default-one/i', '/default-two/i']);
    });
  }

  it('rejects an invalid pattern naming the field and the array index', () => {
    expect(() => compilePatterns(['fine', '(unclosed'], DEFAULTS, 'platforms.pool.limitPatterns'))
      .to.throw(/^platforms\.pool\.limitPatterns\[1\]: invalid regular expression "\(unclosed"/)
      .with.property('name', 'ConfigError');
  });

  it('rejects an invalid pattern naming the field and the line', () => {
    expect(() => compilePatterns('fine\n[z-a]', DEFAULTS, 'platforms.pool.anomalyPatterns')).to.throw(/^platforms\.pool\.anomalyPatterns \(line 2\): invalid regular expression/);
  });
});
