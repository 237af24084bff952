import { expect } from 'chai';
import { isGatewayError } from '@gateway/core';
import { toOpenAiModelList } from '../src/list-claude-models';

describe('toOpenAiModelList', () => {
  it('maps the Anthropic list, adds -thinking variants and the extras once', () => {
    const list = toOpenAiModelList(
      { data: [{ type: 'model', id: 'claude-opus-4-6', display_name: 'Claude Opus 4.6', created_at: '2026-02-05T00:00:00Z' }, { type: 'model', id: 'claude-x-thinking' }], has_more: false },
      ['my-model', 'claude-opus-4-6'],
      'claude',
    );
    expect(list).to.deep.equal({
      object: 'list',
      data: [
        { id: 'claude-opus-4-6', object: 'model', created: 1770249600, owned_by: 'anthropic', display_name: 'Claude Opus 4.6' },
        { id: 'claude-opus-4-6-thinking', object: 'model', created: 1770249600, owned_by: 'anthropic', display_name: 'Claude Opus 4.6 (thinking)' },
        { id: 'claude-x-thinking', object: 'model', created: 0, owned_by: 'anthropic' },
        { id: 'my-model', object: 'model', created: 0, owned_by: 'claude' },
      ],
    });
  });

  it('refuses a body that is not a list', () => {
    try {
      toOpenAiModelList({ error: 'x' }, [], 'claude');
      expect.fail('expected a refusal');
    } catch (error) {
      expect(isGatewayError(error) && error.code).to.equal('GW_UPSTREAM_BAD_RESPONSE');
    }
  });
});
