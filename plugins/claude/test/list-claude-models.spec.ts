import { expect } from 'chai';
import { isGatewayError } from '@gateway/core';
import { claudeModelCards } from '../src/list-claude-models';

describe('claudeModelCards', () => {
  it('keeps each Anthropic model for Anthropic clients and follows it with its -thinking variant', () => {
    const opus = { type: 'model', id: 'claude-opus-4-6', display_name: 'Claude Opus 4.6', created_at: '2026-02-05T00:00:00Z' };
    const cards = claudeModelCards({ data: [opus, { type: 'model', id: 'claude-x-thinking' }, null], has_more: false });
    expect(cards).to.deep.equal([
      { id: 'claude-opus-4-6', ownedBy: 'anthropic', created: 1770249600, displayName: 'Claude Opus 4.6', native: { dialect: 'messages', fields: opus } },
      { id: 'claude-opus-4-6-thinking', ownedBy: 'anthropic', created: 1770249600, displayName: 'Claude Opus 4.6 (thinking)', variantOf: 'claude-opus-4-6' },
      { id: 'claude-x-thinking', ownedBy: 'anthropic', created: 0, native: { dialect: 'messages', fields: { type: 'model', id: 'claude-x-thinking' } } },
    ]);
  });

  it('takes an unreadable created_at as 0', () => {
    expect(claudeModelCards({ data: [{ id: 'claude-a', created_at: 'soon' }] })[0]?.created).to.equal(0);
  });

  it('refuses a body that is not a list', () => {
    try {
      claudeModelCards({ error: 'x' });
      expect.fail('expected a refusal');
    } catch (error) {
      expect(isGatewayError(error) && error.code).to.equal('GW_UPSTREAM_BAD_RESPONSE');
    }
  });
});
