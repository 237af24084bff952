import { expect } from 'chai';
import { ConfigError } from '../../../core/config/load-config';
import { resolveEnvRefs } from '../../../core/config/resolve-env-refs';

describe('resolveEnvRefs', () => {
  it('replaces env:NAME at any depth and leaves other strings alone', () => {
    const { value, warnings } = resolveEnvRefs({ a: 'env:A', b: ['x', 'env:B'], c: { d: 'env:A' }, e: 'envelope', f: 'environment: prod', g: 'see env:A', n: 3 }, { A: '1', B: '2' });
    expect(value).to.deep.equal({ a: '1', b: ['x', '2'], c: { d: '1' }, e: 'envelope', f: 'environment: prod', g: 'see env:A', n: 3 });
    expect(warnings).to.deep.equal([]);
  });

  it('drops unset values: the key in an object, the whole element in an array', () => {
    const { value, warnings } = resolveEnvRefs({ a: 'env:MISSING', list: [{ apiKey: 'env:MISSING', tier: 'basic' }, { apiKey: 'env:SET' }], keys: ['env:MISSING'] }, { SET: 's' });
    expect(value).to.deep.equal({ list: [{ apiKey: 's' }], keys: [] });
    expect(warnings).to.have.length(3);
    expect(warnings[0]).to.equal('a: environment variable MISSING is not set');
  });

  it('trims the whitespace around a value read from the environment (a secret mounted from a file ends in a newline)', () => {
    const env = { LIC: 'lic-env-0123456789\n', KEY: '  sk-key-0001\r\n', URL: '\thttp://127.0.0.1:9\n', INNER: 'a b' };
    const { value, warnings } = resolveEnvRefs({ licenses: ['env:LIC'], apiKey: 'env:KEY', baseUrl: 'env:URL', inner: 'env:INNER' }, env);
    expect(value).to.deep.equal({ licenses: ['lic-env-0123456789'], apiKey: 'sk-key-0001', baseUrl: 'http://127.0.0.1:9', inner: 'a b' });
    expect(warnings).to.deep.equal([]);
  });

  it('takes a variable holding only whitespace as unset', () => {
    const { value, warnings } = resolveEnvRefs({ adminKeys: ['env:BLANK'] }, { BLANK: '\n' });
    expect(value).to.deep.equal({ adminKeys: [] });
    expect(warnings).to.deep.equal(['adminKeys[0]: environment variable BLANK is not set']);
  });

  it('forgives whitespace around a whole reference', () => {
    for (const ref of ['env:OPENAI_API_KEY ', ' env:OPENAI_API_KEY', 'env:OPENAI_API_KEY\n']) {
      expect(resolveEnvRefs({ apiKey: ref }, { OPENAI_API_KEY: 'sk-real' }).value, JSON.stringify(ref)).to.deep.equal({ apiKey: 'sk-real' });
    }
  });

  it('refuses a string that starts like a reference but is not one, naming the field, never using it as the value', () => {
    const cases: Array<[string, RegExp]> = [
      ['env: OPENAI_API_KEY', /write "env:" in lower case, with no space around the colon/],
      ['ENV:OPENAI_API_KEY', /write "env:" in lower case/],
      ['Env:OPENAI_API_KEY', /write "env:" in lower case/],
      ['env :OPENAI_API_KEY', /no space around the colon/],
      ['env:OPENAI-API-KEY', /a variable name has only letters, digits and _, and does not start with a digit/],
      ['env:1KEY', /does not start with a digit/],
      ['env:OPENAI_API_KEY extra', /a variable name has only letters, digits and _/],
      ['env:', /it names no variable/],
    ];
    const env = { OPENAI_API_KEY: 'sk-real', 'OPENAI-API-KEY': 'sk-real' };
    for (const [ref, why] of cases) {
      const raw = { platforms: { o: { plugin: 'openai', credentials: [{ apiKey: 'sk-other' }, { apiKey: ref }] } } };
      const run = () => resolveEnvRefs(raw, env);
      expect(run, JSON.stringify(ref)).to.throw(ConfigError, /^invalid config: platforms\.o\.credentials\[1\]\.apiKey: starts with env: but is not an environment reference \(env:NAME, e.g\. env:OPENAI_API_KEY\): /);
      expect(run, JSON.stringify(ref)).to.throw(ConfigError, why);
    }
  });

  it('does not quote the refused value: it may be a credential written after env:', () => {
    const secret = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123';
    expect(() => resolveEnvRefs({ apiKey: `env:${secret}` }, {})).to.throw(ConfigError).that.satisfies((error: Error) => !error.message.includes('abcdefghijklmnop'));
  });
});
