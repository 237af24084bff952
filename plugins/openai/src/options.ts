import { API_KEY_CREDENTIAL_SCHEMA, credentialListSchema, type ImageBase64Style } from '@gateway/core';

/** Options of an OpenAI-compatible platform, beside the base keys every platform has (plugin, baseUrl, timeouts, models). */
export interface OpenAiOptions {
  /** API keys, used round-robin. An empty list makes every call answer 503. */
  credentials: Array<{ apiKey: string }>;
  /**
   * `POST /v1/alpha/search`: `responses` (default) answers with the Responses API's `web_search` tool;
   * `passthrough` forwards to an upstream that serves `/v1/alpha/search` itself.
   */
  search?: 'responses' | 'passthrough';
  /**
   * `POST /v1/responses`: `passthrough` (default) to the upstream's Responses API; `chat` translates it to chat
   * completions, for a service that has none (DeepSeek, Mistral, most self-hosted servers), so that Codex can use it.
   */
  responses?: 'passthrough' | 'chat';
  /** Model for the Responses search call; default: the client's `model`. */
  searchModel?: string;
  /** `b64_json` as a data URI (default, spec 2.4) or as the plain base64 the OpenAI API sends. */
  imageBase64?: ImageBase64Style;
}

export const openAiOptionsSchema = {
  type: 'object',
  required: ['credentials'],
  properties: {
    credentials: credentialListSchema(API_KEY_CREDENTIAL_SCHEMA),
    search: { enum: ['responses', 'passthrough'] },
    responses: { enum: ['passthrough', 'chat'] },
    searchModel: { type: 'string', minLength: 1 },
    imageBase64: { enum: ['data-uri', 'plain'] },
  },
} as const;
