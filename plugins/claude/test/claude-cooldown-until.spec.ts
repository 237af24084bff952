import { expect } from 'chai';
import { claudeCooldownUntil } from '../src/claude-cooldown-until';

const NOW = Date.parse('2026-01-01T00:00:00Z');
const at = (seconds: number): string => new Date(NOW + seconds * 1000).toISOString();

describe('claudeCooldownUntil', () => {
  const cases: Array<[string, Record<string, string>, number]> = [
    ['retry-after seconds win', { 'retry-after': '12', 'anthropic-ratelimit-requests-reset': at(99), 'anthropic-ratelimit-requests-remaining': '0' }, NOW + 12_000],
    ['retry-after 0 still rests one second', { 'retry-after': '0' }, NOW + 1000],
    [
      'the latest reset of an exhausted limit',
      {
        'anthropic-ratelimit-requests-remaining': '0', 'anthropic-ratelimit-requests-reset': at(20),
        'anthropic-ratelimit-input-tokens-remaining': '0', 'anthropic-ratelimit-input-tokens-reset': at(45),
        'anthropic-ratelimit-output-tokens-remaining': '900', 'anthropic-ratelimit-output-tokens-reset': at(90),
      },
      NOW + 45_000,
    ],
    ['the earliest reset ahead when none says exhausted', { 'anthropic-ratelimit-tokens-reset': at(30), 'anthropic-ratelimit-requests-reset': at(10) }, NOW + 10_000],
    ['resets in the past are ignored', { 'anthropic-ratelimit-tokens-reset': at(-5) }, NOW + 60_000],
    ['the fallback without hints', {}, NOW + 60_000],
    [
      "a subscription's rejected usage window: its unified reset (Unix seconds), hours ahead",
      { 'anthropic-ratelimit-unified-status': 'rejected', 'anthropic-ratelimit-unified-reset': String(NOW / 1000 + 4 * 3600) },
      NOW + 4 * 3600_000,
    ],
    ['a unified reset without the rejected status is no rest of its own', { 'anthropic-ratelimit-unified-status': 'allowed', 'anthropic-ratelimit-unified-reset': String(NOW / 1000 + 3600) }, NOW + 60_000],
    ['retry-after still wins over a unified reset', { 'retry-after': '5', 'anthropic-ratelimit-unified-status': 'rejected', 'anthropic-ratelimit-unified-reset': String(NOW / 1000 + 3600) }, NOW + 5000],
  ];
  for (const [name, headers, expected] of cases) {
    it(name, () => {
      expect(claudeCooldownUntil(headers, NOW, 60_000)).to.equal(expected);
    });
  }
});
