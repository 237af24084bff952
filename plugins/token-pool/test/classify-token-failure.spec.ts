import { expect } from 'chai';
import { classifyTokenFailure, type TokenPatterns } from '../src/classify-token-failure';
import { compilePatterns } from '../src/compile-patterns';
import { DEFAULT_ANOMALY_PATTERNS, DEFAULT_LIMIT_PATTERNS } from '../src/default-patterns';
import { OPENAI_ERRORS } from './pool-test-kit';

function patterns(limit?: string | string[], anomaly?: string | string[]): TokenPatterns {
  return { limit: compilePatterns(limit, DEFAULT_LIMIT_PATTERNS, 'limit'), anomaly: compilePatterns(anomaly, DEFAULT_ANOMALY_PATTERNS, 'anomaly') };
}

const json = (value: unknown): string => JSON.stringify(value);

describe('token-pool classifyTokenFailure', () => {
  describe('built-in patterns (empty lists)', () => {
    const defaults = patterns();
    const rows: Array<[string, number, string, 'limit' | 'anomaly' | undefined]> = [
      ['an OpenAI requests rate limit', 429, json(OPENAI_ERRORS.rateLimit), 'limit'],
      ['an OpenAI exhausted quota', 429, json(OPENAI_ERRORS.quota), 'limit'],
      ['a bare 429 with an empty body', 429, '', 'limit'],
      ['a 402 payment required', 402, json({ error: { message: 'Payment required' } }), 'limit'],
      ['a Gemini RESOURCE_EXHAUSTED', 400, json({ error: { code: 400, message: 'quota', status: 'RESOURCE_EXHAUSTED' } }), 'limit'],
      ['a usage cap in a 400 body', 400, json({ error: { message: 'You have reached your daily usage limit for this plan.' } }), 'limit'],
      ['an insufficient balance', 403, json({ error: { message: 'Insufficient balance, please top up' } }), 'limit'],
      ['a suspended account', 401, json(OPENAI_ERRORS.suspended), 'anomaly'],
      ['an invalid API key', 401, json({ error: { message: 'Incorrect API key provided: ...abcd.', code: 'invalid_api_key' } }), 'anomaly'],
      ['an expired token', 403, json({ error: { message: 'Your access token has expired, please sign in again' } }), 'anomaly'],
      ['a banned account', 403, json({ error: { message: 'This account is banned for violating the terms' } }), 'anomaly'],
      ['a deactivated organisation', 403, json({ error: { message: 'Your organization has been deactivated' } }), 'anomaly'],
      ['a disabled account', 403, 'account has been disabled', 'anomaly'],
      ['any 401', 401, 'Unauthorized', 'anomaly'],
      ['a request error naming "tokens"', 400, json(OPENAI_ERRORS.badRequest), undefined],
      ['a prompt that is too long', 400, json({ error: { message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens." } }), undefined],
      ['a bad logit_bias key', 400, json({ error: { message: "Invalid key in 'logit_bias': hello. You should only be submitting non-negative integers.", param: 'logit_bias' } }), undefined],
      ['an invalid token id', 400, json({ error: { message: 'Invalid token id 999999999 in logit_bias' } }), undefined],
      ['an invalid API key in a 403', 403, json({ error: { message: 'Invalid API key' } }), 'anomaly'],
      ['an invalid access token in a 403', 403, json({ error: { message: 'invalid_access_token' } }), 'anomaly'],
      ['an unknown model', 404, json({ error: { message: 'The model `gpt-9` does not exist or you do not have access to it.', code: 'model_not_found' } }), undefined],
      ['an upstream fault', 500, json({ error: { message: 'The server had an error while processing your request. Sorry about that!' } }), undefined],
      ['an overloaded upstream', 503, json({ error: { message: 'The engine is currently overloaded, please try again later.' } }), undefined],
    ];
    for (const [what, status, text, verdict] of rows) {
      it(`${what} (${status}) → ${verdict ?? 'not the token'}`, () => {
        expect(classifyTokenFailure({ status, text }, defaults)).to.equal(verdict);
      });
    }
  });

  describe('configured patterns', () => {
    const configured = patterns('slow down\nplan cap', ['account frozen']);

    it('a configured limit list replaces the defaults', () => {
      expect(classifyTokenFailure({ status: 400, text: 'Please SLOW DOWN' }, configured)).to.equal('limit');
      expect(classifyTokenFailure({ status: 429, text: json(OPENAI_ERRORS.rateLimit) }, configured)).to.equal(undefined);
    });

    it('a configured anomaly list replaces the defaults', () => {
      expect(classifyTokenFailure({ status: 403, text: 'Account Frozen' }, configured)).to.equal('anomaly');
      expect(classifyTokenFailure({ status: 401, text: json(OPENAI_ERRORS.suspended) }, configured)).to.equal(undefined);
    });

    it('matches the status line as well as the body', () => {
      expect(classifyTokenFailure({ status: 418, text: '' }, patterns(['^HTTP 418 I\'m a teapot\n']))).to.equal('limit');
    });

    it('an anomaly match wins over a limit match', () => {
      expect(classifyTokenFailure({ status: 429, text: 'rate limit; also your account has been suspended' }, patterns())).to.equal('anomaly');
    });
  });
});
