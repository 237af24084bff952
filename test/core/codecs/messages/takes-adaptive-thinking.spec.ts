import { expect } from 'chai';
import { takesAdaptiveThinking } from '../../../../core/codecs/messages/takes-adaptive-thinking';

describe('takesAdaptiveThinking', () => {
  const cases: Array<[string, boolean]> = [
    ['claude-opus-4-6', true],
    ['claude-sonnet-4-6-20260217', true],
    ['claude-opus-4-7', true],
    ['claude-opus-5-0', true],
    ['claude-mythos-preview', true],
    ['claude-opus-4-5-20251101', false],
    ['claude-sonnet-4-5', false],
    // A dated 4.0 id: the date is no minor version.
    ['claude-opus-4-20250514', false],
    ['claude-sonnet-4-20250514', false],
    ['claude-haiku-4-5', false],
    ['vendor-model', false],
  ];
  for (const [model, expected] of cases) {
    it(`${model} → ${expected}`, () => expect(takesAdaptiveThinking(model)).to.equal(expected));
  }
});
