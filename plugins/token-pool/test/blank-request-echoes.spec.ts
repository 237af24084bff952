import { expect } from 'chai';
import { blankRequestEchoes } from '../src/blank-request-echoes';
import { compilePatterns } from '../src/compile-patterns';
import { DEFAULT_ANOMALY_PATTERNS, DEFAULT_LIMIT_PATTERNS } from '../src/default-patterns';

const body = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));
const PATTERNS = { limit: compilePatterns(undefined, DEFAULT_LIMIT_PATTERNS, 'limit'), anomaly: compilePatterns(undefined, DEFAULT_ANOMALY_PATTERNS, 'anomaly') };
const blank = (text: string, request: Buffer | undefined, patterns = PATTERNS): string => blankRequestEchoes(text, request, patterns);

describe('token-pool blankRequestEchoes', () => {
  it("blanks the values and keys the request sent that a pattern matches, whatever their case, and keeps the upstream's own words", () => {
    const text = blank(
      '{"error":{"message":"The model `My-Suspended-Model` does not exist; Invalid key in \'logit_bias\': banned."}}',
      body({ model: 'my-suspended-model', logit_bias: { banned: 1 } }),
    );
    expect(text).to.not.match(/suspended|banned/);
    expect(text).to.contain('does not exist; invalid key in');
  });

  it("reads a JSON error's numbers as `key: value` lines in their place, so a pattern can match a service's numeric code", () => {
    const text = blank('{"error_code":18,"error_msg":"Open api qps request limit reached","retry":true}', undefined);
    expect(text).to.equal('error_code: 18\nopen api qps request limit reached');
    const patterns = { limit: compilePatterns(['error_code\\D{0,4}18\\b'], DEFAULT_LIMIT_PATTERNS, 'limit'), anomaly: PATTERNS.anomaly };
    expect(patterns.limit.some((pattern) => pattern.test(blank('{"error":{"code":18,"message":"x"}}', undefined, patterns)))).to.equal(false);
    expect(patterns.limit.some((pattern) => pattern.test(blank('{"error_code":18,"error_msg":"x"}', undefined, patterns)))).to.equal(true);
    expect(blank('{"error":{"code":1113,"message":"余额不足"}}', undefined)).to.equal('code: 1113\n余额不足');
    // A number the request itself sent, quoted back (pydantic's 422 `input`), is the client's, not the upstream's mark.
    const echoed = blank('{"detail":[{"msg":"Extra inputs are not permitted","input":{"error_code":18}}]}', body({ metadata: { tag: { error_code: 18 } } }), patterns);
    expect(patterns.limit.some((pattern) => pattern.test(echoed))).to.equal(false);
  });

  it('blanks a long prompt as a whole before the short values it contains', () => {
    const prompt = 'say: my account was banned';
    expect(blank(`echo: ${prompt}!`, body({ messages: [{ role: 'user', content: prompt }], user: 'banned' }))).to.equal('echo:  !');
  });

  it('finds an echo the upstream escaped in its JSON (\\", \\\\, \\u00e9)', () => {
    for (const model of ['acct-suspended"', 'acct\\suspended', 'accté-suspended']) {
      const escaped = JSON.stringify({ error: { message: `The model '${model}' does not exist`, code: 'model_not_found' } }).replace(/é/g, '\\u00e9');
      const text = blank(escaped, body({ model, messages: [{ role: 'user', content: 'hi' }] }));
      expect(text, model).to.not.contain('suspended');
      expect(text).to.contain('does not exist');
    }
  });

  it('blanks the part of a prompt a pattern matches when the upstream quotes it cut short', () => {
    const prompt = 'please write a story where the hero gets suspended from school for a week';
    expect(blank(`{"error":{"message":"prompt flagged: '...hero gets suspended from sch...'"}}`, body({ messages: [{ role: 'user', content: prompt }] }))).to.not.contain('suspended');
  });

  it('leaves ordinary request words, so patterns that contain them still match', () => {
    const request = body({ model: 'gpt-x', reasoning_effort: 'low', messages: [{ role: 'user', content: 'hi' }] });
    expect(blank('{"error":{"message":"Your credit balance is too low"}}', request)).to.contain('credit balance is too low');
    const custom = { limit: [], anomaly: compilePatterns(['user blocked', 'model access revoked'], [], 'anomaly') };
    expect(blank('{"error":{"message":"User blocked by administrator"}}', request, custom)).to.contain('user blocked');
    expect(blank('{"error":{"message":"Model access revoked"}}', request, custom)).to.contain('model access revoked');
  });

  it('leaves strings shorter than 3 characters, and text when the body is absent or not JSON', () => {
    expect(blank('Rate limit AB', body({ x: 'ab' }))).to.equal('rate limit ab');
    expect(blank('Account Suspended', undefined)).to.equal('account suspended');
    expect(blank('account suspended', Buffer.from('suspended'))).to.equal('account suspended');
  });

  it('blanks every word a pattern reads when the request has too many strings to look for one by one', () => {
    // 30,000 messages each saying "banned N", quoted back by the upstream: looked for one by one, 300,000 of them
    // held the event loop for 21 s.
    const messages = Array.from({ length: 30_000 }, (_, i) => ({ role: 'user', content: `banned ${i}` }));
    const error = JSON.stringify({ detail: [{ msg: 'bad input', input: messages.slice(0, 2000) }] });
    const text = blank(error, body({ model: 'm', messages }));
    expect(text).not.to.match(/banned/);
    expect(text).to.include('bad input');
  });

  it("keeps the upstream's own words past those bounds: a suspension the request never mentioned still reads", () => {
    const messages = Array.from({ length: 201 }, (_, i) => ({ role: 'user', content: `note ${i}: hit the rate limit` }));
    const text = blank('{"error":{"message":"This organization has been suspended for violating our terms."}}', body({ model: 'm', messages }));
    expect(text).to.include('suspended');
  });

  it('does not read the request when nothing in the error is a word a pattern reads', () => {
    expect(blank('{"error":{"message":"Invalid value for max_tokens"}}', Buffer.from('not even JSON {'))).to.equal('invalid value for max_tokens');
  });
});
