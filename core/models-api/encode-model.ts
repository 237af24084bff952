import type { ModelCard } from './model-card';

/** A Gemini model's methods when the upstream did not list them: what the gateway serves for every model. */
const GEMINI_METHODS = Object.freeze(['generateContent', 'countTokens']);

/** `{id, object: 'model', created, owned_by}` (plus `display_name` where known, which chat apps show). */
export function toOpenAiModel(card: ModelCard): Record<string, unknown> {
  if (card.native?.dialect === 'openai') return { ...card.native.fields, id: card.id };
  return { id: card.id, object: 'model', created: card.created ?? 0, owned_by: card.ownedBy, ...(card.displayName ? { display_name: card.displayName } : {}) };
}

/** Anthropic's `{type: 'model', id, display_name, created_at}`; `created_at` is RFC 3339 without fractions, as sent. */
export function toAnthropicModel(card: ModelCard): Record<string, unknown> {
  if (card.native?.dialect === 'messages') return { ...card.native.fields, type: 'model', id: card.id };
  const createdAt = new Date((card.created ?? 0) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return { type: 'model', id: card.id, display_name: card.displayName ?? card.id, created_at: createdAt };
}

/** Gemini's `{name: 'models/{id}', displayName, supportedGenerationMethods, …}`. */
export function toGeminiModel(card: ModelCard): Record<string, unknown> {
  const name = `models/${card.id}`;
  if (card.native?.dialect === 'gemini') return { ...card.native.fields, name };
  return { name, displayName: card.displayName ?? card.id, supportedGenerationMethods: [...GEMINI_METHODS] };
}
