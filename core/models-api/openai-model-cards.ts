import { GatewayError } from '../errors/gateway-error';
import type { ModelCard } from './model-card';

interface ModelEntry {
  id: string;
  [field: string]: unknown;
}

/**
 * An OpenAI-shaped model list (`{data: [{id, object, created, owned_by, …}]}`, what every OpenAI-compatible
 * service answers) → cards that keep each entry for OpenAI clients. Any other shape is the upstream's fault (502).
 */
export function openAiModelCards(answer: unknown): ModelCard[] {
  const data = typeof answer === 'object' && answer !== null ? (answer as { data?: unknown }).data : undefined;
  if (!Array.isArray(data) || !data.every(isModelEntry)) throw new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream model list is not an OpenAI list');
  return data.map((entry) => ({
    id: entry.id,
    ownedBy: typeof entry.owned_by === 'string' ? entry.owned_by : 'system',
    ...(typeof entry.created === 'number' && Number.isFinite(entry.created) ? { created: entry.created } : {}),
    native: { dialect: 'openai', fields: entry },
  }));
}

function isModelEntry(value: unknown): value is ModelEntry {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as { id?: unknown }).id === 'string';
}
