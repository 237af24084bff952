import { expect } from 'chai';
import { createRedactFormat, isSensitiveKey } from '../../../core/logging/create-redact-format';

/** Runs the format on an entry shaped as winston builds it, and returns what would be written. */
function redact(fields: Record<string, unknown>, secrets: string[] = []): Record<string, unknown> {
  const info = { level: 'info', message: 'm', ...fields };
  const out = createRedactFormat(() => secrets).transform(info);
  if (typeof out !== 'object') throw new Error('the redact format dropped the entry');
  return JSON.parse(JSON.stringify(out)) as Record<string, unknown>;
}

describe('createRedactFormat', () => {
  describe('isSensitiveKey', () => {
    const cases: Array<[string, boolean]> = [
      ['authorization', true],
      ['Authorization', true],
      ['proxy-authorization', true],
      ['x-api-key', true],
      ['x-goog-api-key', true],
      ['api_key', true],
      ['apiKey', true],
      ['apiKeys', true],
      ['token', true],
      ['accessToken', true],
      ['refresh_token', true],
      ['sessionKey', true],
      ['password', true],
      ['cookie', true],
      ['set-cookie', true],
      ['client_secret', true],
      ['licenses', true],
      ['adminKeys', true],
      ['max_tokens', false],
      ['input_tokens', false],
      ['maxOutputTokens', false],
      ['tokenCount', false],
      ['credential', false],
      ['key', false],
      ['message', false],
    ];
    for (const [key, expected] of cases) {
      it(`${key} → ${expected}`, () => expect(isSensitiveKey(key)).to.equal(expected));
    }
  });

  it('keeps only primitive fields of an error: a client error carrying its request config does not leak it', () => {
    const error = Object.assign(new Error('Request failed with status code 401'), {
      code: 'ERR_BAD_REQUEST',
      status: 401,
      config: { headers: { 'X-Custom': 'opaque-credential-value-0000' } },
    });
    const out = redact({ error });
    expect(out.error).to.include({ name: 'Error', message: 'Request failed with status code 401', code: 'ERR_BAD_REQUEST', status: 401 });
    expect(JSON.stringify(out)).not.to.include('opaque-credential-value-0000');
  });

  it('masks every leaf under a sensitive key, and replaces what is not plain data', () => {
    const out = redact({ auth: { apiKey: { primary: 'aaaaaaaa-1111', backups: ['bbbbbbbbb2222', 42, null] } }, token: new Date(0) });
    expect(out.auth).to.deep.equal({ apiKey: { primary: '...1111', backups: ['...2222', '[redacted]', null] } });
    expect(out.token).to.equal('[redacted]');
  });

  it('masks well-known key shapes even when no secret list is given', () => {
    const out = redact({ note: 'upstream echoed sk-proj-abcdefghijklmnopqrstu0123' });
    expect(out.note).to.equal('upstream echoed sk-proj-...0123');
  });

  it('leaves short secrets alone rather than masking common substrings', () => {
    expect(redact({ note: 'abc here' }, ['abc'])).to.include({ note: 'abc here' });
  });

  it('returns the caller\'s own nested object when nothing in it needed masking', () => {
    const nested = { a: [1, 2, { b: 'plain' }] };
    const out = createRedactFormat(() => ['secret-value-1234']).transform({ level: 'info', message: 'm', nested });
    expect(typeof out === 'object' && out.nested).to.equal(nested);
  });
});
