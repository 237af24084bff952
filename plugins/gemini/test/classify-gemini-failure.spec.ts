import { expect } from 'chai';
import type { UpstreamFailure } from '@gateway/core';
import { fixtureJson } from '../../../test/helpers/fixtures';
import { classifyGeminiFailure } from '../src/classify-gemini-failure';
import { KEY_A } from './helpers';

function failure(status: number, json: unknown, headers: Record<string, string> = {}): UpstreamFailure {
  return { status, headers, text: JSON.stringify(json), json };
}

describe('classifyGeminiFailure', () => {
  it('reads a 429 as rate-limited with the RetryInfo delay and the upstream message', () => {
    const error = classifyGeminiFailure(failure(429, fixtureJson('gemini/error-429.json')), 'chat.completions', [KEY_A]);
    expect(error.code).to.equal('GW_RATE_LIMITED');
    expect(error.status).to.equal(429);
    expect(error.retryAfterMs).to.equal(37_000);
    expect(error.message).to.match(/^You exceeded your current quota/);
  });

  it('keeps the rpc status name for Gemini clients only', () => {
    const body = fixtureJson('gemini/error-400.json');
    expect(classifyGeminiFailure(failure(400, body), 'gemini.generateContent', []).upstreamType).to.equal('INVALID_ARGUMENT');
    expect(classifyGeminiFailure(failure(400, body), 'chat.completions', []).upstreamType).to.equal(undefined);
  });

  it('keeps ErrorInfo.reason as the upstream code', () => {
    expect(classifyGeminiFailure(failure(400, fixtureJson('gemini/error-400-api-key.json')), 'messages', []).upstreamCode).to.equal('API_KEY_INVALID');
  });

  it('reads an error wrapped in an array', () => {
    const error = classifyGeminiFailure(failure(503, [{ error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } }]), 'responses', []);
    expect(error.code).to.equal('GW_UPSTREAM_OVERLOADED');
    expect(error.message).to.equal('The model is overloaded.');
  });

  it('falls back to retry-after for the delay', () => {
    expect(classifyGeminiFailure(failure(429, { error: { code: 429, message: 'slow down', status: 'RESOURCE_EXHAUSTED' } }, { 'retry-after': '5' }), 'chat.completions', []).retryAfterMs).to.equal(5000);
  });

  it('masks configured keys and any Google API key in the message', () => {
    const other = 'AIzaSyD0123456789abcdefghijklmnopqrstuv';
    const error = classifyGeminiFailure(failure(400, { error: { code: 400, message: `bad keys ${KEY_A} and ${other}`, status: 'INVALID_ARGUMENT' } }), 'chat.completions', [KEY_A]);
    expect(error.message).not.to.include(KEY_A);
    expect(error.message).not.to.include(other);
    expect(error.message).to.include('...0001');
  });

  it('reads a body that is not a Gemini envelope generically', () => {
    const error = classifyGeminiFailure({ status: 502, headers: {}, text: '<html>Bad Gateway</html>' }, 'chat.completions', []);
    expect(error.status).to.equal(502);
    expect(error.message).to.include('Bad Gateway');
  });
});
