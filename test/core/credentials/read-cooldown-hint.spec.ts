import { expect } from 'chai';
import { readCooldownHint } from '../../../core/credentials/read-cooldown-hint';

const NOW = 1_700_000_000_000;

describe('readCooldownHint', () => {
  const rows: Array<[string, Record<string, string | string[] | undefined>, number | undefined]> = [
    ['no hint', {}, undefined],
    ['retry-after seconds', { 'retry-after': '20' }, 20_000],
    ['retry-after-ms wins over retry-after', { 'retry-after-ms': '1500', 'retry-after': '20' }, 1500],
    ['retry-after wins over x-ratelimit-reset-*', { 'retry-after': '2', 'x-ratelimit-reset-tokens': '6m0s' }, 2000],
    ['an OpenAI reset duration', { 'x-ratelimit-reset-requests': '1m30.5s' }, 90_500],
    ['a milliseconds duration', { 'x-ratelimit-reset-tokens': '250ms' }, 250],
    ['the longest of several resets', { 'x-ratelimit-reset-requests': '1s', 'x-ratelimit-reset-tokens': '1h2m3s' }, 3_723_000],
    ['x-ratelimit-reset in seconds', { 'x-ratelimit-reset': '30' }, 30_000],
    ['x-ratelimit-reset as epoch seconds', { 'x-ratelimit-reset': String(NOW / 1000 + 45) }, 45_000],
    ['x-ratelimit-reset as epoch ms', { 'x-ratelimit-reset': String(NOW + 7000) }, 7000],
    ['an unreadable value', { 'x-ratelimit-reset': 'soon' }, undefined],
    ['an array header', { 'retry-after': ['3', '9'] }, 3000],
  ];
  for (const [what, headers, expected] of rows) {
    it(`${what} → ${String(expected)}`, () => {
      expect(readCooldownHint(headers, NOW)).to.equal(expected);
    });
  }
});
