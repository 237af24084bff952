import { expect } from 'chai';
import { classifyUpstreamFailure, type UpstreamFailure } from '@gateway/core';
import { DEFAULT_COOLDOWN_MS, judgeOpenAiFailure, QUOTA_COOLDOWN_MS } from '../src/judge-openai-failure';

const NOW = 1_700_000_000_000;

function failure(status: number, code: string | null, headers: Record<string, string> = {}): UpstreamFailure {
  const json = { error: { message: `m ${code}`, type: 'x', param: null, code } };
  return { status, headers, text: JSON.stringify(json), json };
}

function judge(f: UpstreamFailure) {
  return judgeOpenAiFailure(f, classifyUpstreamFailure(f), NOW);
}

describe('judgeOpenAiFailure', () => {
  it('rests a rate-limited key for the upstream hint, else a minute; an exhausted quota is limit-marked for an hour', () => {
    expect(judge(failure(429, 'rate_limit_exceeded', { 'retry-after': '7' }))).to.deep.equal({ action: 'cooldown', untilMs: NOW + 7000 });
    expect(judge(failure(429, 'rate_limit_exceeded', { 'x-ratelimit-reset-tokens': '6m0s' }))).to.deep.equal({ action: 'cooldown', untilMs: NOW + 360_000 });
    expect(judge(failure(429, null))).to.deep.equal({ action: 'cooldown', untilMs: NOW + DEFAULT_COOLDOWN_MS });
    expect(judge(failure(429, 'insufficient_quota'))).to.deep.equal({ action: 'cooldown', untilMs: NOW + QUOTA_COOLDOWN_MS, state: 'limit_marked' });
  });

  it('limit-marks for an hour a key out of balance (a compatible service\'s 402 "Insufficient Balance")', () => {
    expect(judge(failure(402, null))).to.deep.equal({ action: 'cooldown', untilMs: NOW + QUOTA_COOLDOWN_MS, state: 'limit_marked' });
  });

  it('takes a key out of service on 401, and on a 403 that refuses its account', () => {
    for (const f of [failure(401, 'invalid_api_key'), failure(401, 'account_deactivated'), failure(403, 'account_deactivated'), failure(403, 'invalid_organization')]) {
      expect(judge(f), `${f.status} ${f.text}`).to.deep.equal({ action: 'disable', state: 'invalid' });
    }
  });

  it("leaves the key alone for what is the request's fault or the upstream's", () => {
    for (const f of [failure(400, 'invalid_value'), failure(403, 'unsupported_country_region_territory'), failure(404, 'model_not_found'), failure(500, null), failure(503, null)]) {
      expect(judge(f), `${f.status} ${f.text}`).to.deep.equal({ action: 'fail' });
    }
  });
});
