import { expect } from 'chai';
import { toAnthropicModel, toGeminiModel, toOpenAiModel } from '../../../core/models-api/encode-model';
import type { ModelCard } from '../../../core/models-api/model-card';

const bare: ModelCard = { id: 'm-1', ownedBy: 'acme', created: 1770249600, displayName: 'Model One' };
const extra: ModelCard = { id: 'my-extra', ownedBy: 'platform-key' };

describe('encode-model', () => {
  it('toOpenAiModel builds the OpenAI object, or keeps the upstream OpenAI entry with the card id', () => {
    expect(toOpenAiModel(bare)).to.deep.equal({ id: 'm-1', object: 'model', created: 1770249600, owned_by: 'acme', display_name: 'Model One' });
    expect(toOpenAiModel(extra)).to.deep.equal({ id: 'my-extra', object: 'model', created: 0, owned_by: 'platform-key' });
    const native: ModelCard = { id: 'gpt-x-max', ownedBy: 'o', native: { dialect: 'openai', fields: { id: 'gpt-x', object: 'model', created: 5, owned_by: 'o', context_length: 128000 } } };
    expect(toOpenAiModel(native)).to.deep.equal({ id: 'gpt-x-max', object: 'model', created: 5, owned_by: 'o', context_length: 128000 });
  });

  it('toAnthropicModel builds type/id/display_name/created_at (RFC 3339, no fractions), or keeps the Anthropic object', () => {
    expect(toAnthropicModel(bare)).to.deep.equal({ type: 'model', id: 'm-1', display_name: 'Model One', created_at: '2026-02-05T00:00:00Z' });
    expect(toAnthropicModel(extra)).to.deep.equal({ type: 'model', id: 'my-extra', display_name: 'my-extra', created_at: '1970-01-01T00:00:00Z' });
    const native: ModelCard = { id: 'claude-a', ownedBy: 'anthropic', native: { dialect: 'messages', fields: { type: 'model', id: 'claude-a', display_name: 'A', created_at: '2026-01-01T00:00:00Z', capabilities: {} } } };
    expect(toAnthropicModel(native)).to.deep.equal({ type: 'model', id: 'claude-a', display_name: 'A', created_at: '2026-01-01T00:00:00Z', capabilities: {} });
  });

  it('toGeminiModel builds name/displayName/methods, or keeps the Gemini object; a foreign native object is not used', () => {
    expect(toGeminiModel(bare)).to.deep.equal({ name: 'models/m-1', displayName: 'Model One', supportedGenerationMethods: ['generateContent', 'countTokens'] });
    const native: ModelCard = { id: 'gemini-f', ownedBy: 'google', native: { dialect: 'gemini', fields: { name: 'models/gemini-f', inputTokenLimit: 1048576, supportedGenerationMethods: ['embedContent'] } } };
    expect(toGeminiModel(native)).to.deep.equal({ name: 'models/gemini-f', inputTokenLimit: 1048576, supportedGenerationMethods: ['embedContent'] });
    const openAiNative: ModelCard = { id: 'gpt-x', ownedBy: 'o', native: { dialect: 'openai', fields: { id: 'gpt-x', object: 'model' } } };
    expect(toGeminiModel(openAiNative)).to.deep.equal({ name: 'models/gpt-x', displayName: 'gpt-x', supportedGenerationMethods: ['generateContent', 'countTokens'] });
  });
});
