import { expect } from 'chai';
import { GatewayError, type UpstreamFailure } from '@gateway/core';
import { DEFAULT_COOLDOWN_MS, judgeGeminiFailure } from '../src/judge-gemini-failure';

const NOW = 1_000_000;

function failure(status: number): UpstreamFailure {
  return { status, headers: {}, text: '' };
}

function error(status: number, message: string, options: { retryAfterMs?: number; upstreamCode?: string } = {}): GatewayError {
  return new GatewayError('GW_UPSTREAM_ERROR', message, { status, ...options });
}

describe('judgeGeminiFailure', () => {
  it('cools a rate-limited key down for the upstream retry delay', () => {
    expect(judgeGeminiFailure(failure(429), error(429, 'quota', { retryAfterMs: 37_000 }), NOW)).to.deep.equal({ action: 'cooldown', untilMs: NOW + 37_000 });
  });

  it('cools down for a minute when no delay is given', () => {
    expect(judgeGeminiFailure(failure(429), error(429, 'quota'), NOW)).to.deep.equal({ action: 'cooldown', untilMs: NOW + DEFAULT_COOLDOWN_MS });
  });

  it('disables a key the upstream says is invalid', () => {
    expect(judgeGeminiFailure(failure(400), error(400, 'API key not valid. Please pass a valid API key.', { upstreamCode: 'API_KEY_INVALID' }), NOW)).to.deep.equal({ action: 'disable', state: 'invalid' });
    expect(judgeGeminiFailure(failure(400), error(400, 'API key not valid. Please pass a valid API key.'), NOW).action).to.equal('disable');
    expect(judgeGeminiFailure(failure(401), error(401, 'Request had invalid authentication credentials.'), NOW).action).to.equal('disable');
    expect(judgeGeminiFailure(failure(403), error(403, 'The caller does not have permission'), NOW).action).to.equal('disable');
  });

  it('fails the request when it is not the key\'s fault', () => {
    for (const [status, message] of [
      [400, 'Invalid JSON payload received.'],
      [403, 'You do not have permission to access tuned model tunedModels/abc'],
      [403, 'You do not have permission to access the File abc or it may not exist.'],
      [404, 'models/x is not found'],
      [500, 'An internal error has occurred.'],
      [503, 'The model is overloaded.'],
    ] as const) {
      expect(judgeGeminiFailure(failure(status), error(status, message), NOW), `${status} ${message}`).to.deep.equal({ action: 'fail' });
    }
  });
});
