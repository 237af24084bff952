import { expect } from 'chai';
import { isAdaptiveOnlyClaude } from '../../../../core/codecs/messages/is-adaptive-only-claude';

describe('isAdaptiveOnlyClaude', () => {
  const cases: Array<[string, boolean]> = [
    ['claude-opus-4-7', true],
    ['claude-opus-4-8-20260601', true],
    ['claude-mythos-preview', true],
    ['claude-opus-5', true],
    ['claude-sonnet-5-20270101', true],
    ['claude-opus-4-6', false],
    ['claude-sonnet-4-6', false],
    ['claude-sonnet-4-7', false],
    // A dated 4.0 id: the date is no minor version.
    ['claude-opus-4-20250514', false],
    ['claude-haiku-4-5', false],
    ['gpt-4o', false],
  ];
  for (const [model, expected] of cases) {
    it(`${model} → ${expected}`, () => expect(isAdaptiveOnlyClaude(model)).to.equal(expected));
  }
});
