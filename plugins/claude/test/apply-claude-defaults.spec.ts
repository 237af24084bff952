import { expect } from 'chai';
import type { UnifiedRequest } from '@gateway/core';
import { encodeMessagesRequest } from '../../../core/codecs/messages/encode-request';
import { applyClaudeDefaults } from '../src/apply-claude-defaults';
import { extraHiddenClasses, skipUnlessMapsComparable } from '../../../test/helpers/hidden-class';

const defaults = { defaultMaxTokens: 32000, defaultBudgetTokens: 16000 };
const base: UnifiedRequest = { model: 'claude-sonnet-4-6', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false };

describe('applyClaudeDefaults', () => {
  const cases: Array<{ name: string; input: Partial<UnifiedRequest>; expected: Partial<UnifiedRequest> }> = [
    { name: 'max_tokens defaults to 32000', input: {}, expected: { model: 'claude-sonnet-4-6', maxTokens: 32000 } },
    { name: 'a client max_tokens is kept', input: { maxTokens: 500 }, expected: { maxTokens: 500 } },
    {
      name: '-thinking is stripped and enables thinking with the default budget',
      input: { model: 'claude-sonnet-4-6-thinking' },
      expected: { model: 'claude-sonnet-4-6', maxTokens: 32000, reasoning: { enabled: true, budgetTokens: 16000 } },
    },
    {
      name: '-thinking keeps the client’s own max_tokens, thinking with half of it when the default budget would not fit',
      input: { model: 'claude-sonnet-4-6-thinking', maxTokens: 8000 },
      expected: { model: 'claude-sonnet-4-6', maxTokens: 8000, reasoning: { enabled: true, budgetTokens: 4000 } },
    },
    {
      name: '-thinking with a client max_tokens too small to think in leaves thinking out',
      input: { model: 'claude-sonnet-4-6-thinking', maxTokens: 500 },
      expected: { model: 'claude-sonnet-4-6', maxTokens: 500 },
    },
    {
      name: 'the client’s effort wins over -thinking',
      input: { model: 'claude-opus-4-6-thinking', reasoning: { enabled: true, effort: 'low' } },
      expected: { model: 'claude-opus-4-6', reasoning: { enabled: true, effort: 'low' } },
    },
    {
      name: 'the client switching thinking off wins over -thinking',
      input: { model: 'claude-opus-4-6-thinking', reasoning: { enabled: false } },
      expected: { model: 'claude-opus-4-6', reasoning: { enabled: false } },
    },
    {
      name: 'thinking asked for without a budget gets the default budget',
      input: { reasoning: { includeThoughts: true } },
      expected: { reasoning: { includeThoughts: true, budgetTokens: 16000 } },
    },
    {
      name: 'a wish to see thoughts does not override the client’s own output cap',
      input: { maxTokens: 100, reasoning: { includeThoughts: true } },
      expected: { maxTokens: 100, reasoning: undefined },
    },
    {
      name: 'a wish to see thoughts does not override the client’s temperature',
      input: { temperature: 0.2, reasoning: { includeThoughts: true } },
      expected: { temperature: 0.2, maxTokens: 32000, reasoning: undefined },
    },
    {
      name: 'an output cap above the budget leaves room to think',
      input: { maxTokens: 20000, reasoning: { includeThoughts: true } },
      expected: { maxTokens: 20000, reasoning: { includeThoughts: true, budgetTokens: 16000 } },
    },
    {
      name: 'an explicit effort thinks whatever the temperature',
      input: { temperature: 0.2, reasoning: { enabled: true, effort: 'low', includeThoughts: true } },
      expected: { reasoning: { enabled: true, effort: 'low', includeThoughts: true } },
    },
    { name: 'a model named only "-thinking" is left alone', input: { model: '-thinking' }, expected: { model: '-thinking' } },
  ];
  for (const { name, input, expected } of cases) {
    it(name, () => {
      expect(applyClaudeDefaults({ ...base, ...input }, defaults)).to.deep.include(expected);
    });
  }

  it('leaves reasoning unset when -thinking has no room under the client’s max_tokens', () => {
    expect(applyClaudeDefaults({ ...base, model: 'claude-sonnet-4-6-thinking', maxTokens: 500 }, defaults).reasoning).to.equal(undefined);
  });

  it('lets a wish to see thoughts yield too when -thinking has no room under the client’s max_tokens (Codex sends one on every call)', () => {
    const request = { ...base, model: 'claude-sonnet-4-6-thinking', maxTokens: 1000, reasoning: { includeThoughts: true } };
    expect(applyClaudeDefaults(request, defaults)).to.deep.include({ maxTokens: 1000, reasoning: undefined });
    const encoded = encodeMessagesRequest(applyClaudeDefaults(request, defaults)).value;
    expect(encoded).to.include({ max_tokens: 1000 }).and.not.to.have.property('thinking');
  });

  it('does not change the request it was given', () => {
    const request = { ...base, model: 'claude-sonnet-4-6-thinking' };
    applyClaudeDefaults(request, defaults);
    expect(request.model).to.equal('claude-sonnet-4-6-thinking');
    expect(request).not.to.have.property('reasoning');
  });
});

describe('applyClaudeDefaults hidden classes', () => {
  it('gives every defaulted request one hidden class (no per-request shapes on the hot path)', function () {
    const out: object[] = [];
    // Inputs built whole, as a decoder builds them (a spread copy gaining a key would bring its own map in).
    for (let i = 0; i < 20; i += 1) out.push(applyClaudeDefaults({ model: 'claude-sonnet-4-6', system: [], messages: base.messages, stream: false, temperature: i / 20 }, defaults));
    skipUnlessMapsComparable(this, out[0]);
    expect(extraHiddenClasses(out)).to.equal(0);
  });
});
