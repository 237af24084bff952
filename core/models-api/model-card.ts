import type { ErrorFamily } from '../codecs/codec';

/**
 * The API family whose model objects a client reads: `openai` (`{id, object, created, owned_by}`), `messages`
 * (Anthropic's `{type, id, display_name, created_at}`) or `gemini` (`{name: 'models/…', displayName, …}`). It is
 * also the family of the error shape that client parses.
 */
export type ModelDialect = ErrorFamily;

/** One model a platform serves, as a plugin lists it; core renders it in each client's dialect. */
export interface ModelCard {
  /** The id a client sends as `model` (no `models/` prefix). */
  id: string;
  /** OpenAI's `owned_by`: the vendor, or the platform key for the operator's extra models. */
  ownedBy: string;
  /** Release time, Unix seconds, when the upstream said. */
  created?: number;
  displayName?: string;
  /**
   * Set on a gateway variant (`-thinking`, `-max`) of the model named: the variant suffix is understood only where
   * the gateway translates, so a client whose endpoint is the platform's passthrough is not offered it.
   */
  variantOf?: string;
  /**
   * The upstream's own model object, sent as it came (with the gateway's id) to clients of the same dialect, so
   * fields the gateway does not model (token limits, pricing) are kept.
   */
  native?: { dialect: ModelDialect; fields: Record<string, unknown> };
}
