import { API_KEY_CREDENTIAL_SCHEMA, credentialListSchema } from '@gateway/core';

/** One `safetySettings` entry of the Gemini API: a harm category and its blocking threshold. */
export interface GeminiSafetySetting {
  category: string;
  threshold: string;
}

/** Options of a Gemini platform, beside the base keys every platform has (plugin, baseUrl, timeouts, models). */
export interface GeminiOptions {
  /** API keys, rotated round-robin over the healthy ones. An empty list makes every call answer 503. */
  credentials: Array<{ apiKey: string }>;
  /** Replaces the default (every harm category `OFF`) on translated requests and native requests that set none. */
  safetySettings?: GeminiSafetySetting[];
  /** API version of the paths the gateway builds itself (translated requests, model lists). Default `v1beta`. */
  apiVersion?: string;
  /** Model of image requests that name none (default `gemini-2.5-flash-image`); `imagen-*` models use `:predict`. */
  imageModel?: string;
  /** Model of video requests that name none (default `veo-3.0-generate-001`). */
  videoModel?: string;
  /** Model of `/v1/alpha/search` (default: the request's model when it is a Gemini model, else `gemini-2.5-flash`). */
  searchModel?: string;
  /** `b64_json` as a data URI (default, spec 2.4) or as plain base64. */
  imageBase64?: 'data-uri' | 'plain';
}

export const geminiOptionsSchema = {
  type: 'object',
  required: ['credentials'],
  properties: {
    credentials: credentialListSchema(API_KEY_CREDENTIAL_SCHEMA),
    safetySettings: {
      type: 'array',
      items: {
        type: 'object',
        required: ['category', 'threshold'],
        properties: {
          category: { type: 'string', pattern: '^HARM_CATEGORY_[A-Z_]+$' },
          threshold: { type: 'string', pattern: '^[A-Z_]+$' },
        },
      },
    },
    apiVersion: { type: 'string', pattern: '^v[0-9]+(alpha|beta)?[0-9]*$' },
    imageModel: { type: 'string', minLength: 1 },
    videoModel: { type: 'string', minLength: 1 },
    searchModel: { type: 'string', minLength: 1 },
    imageBase64: { enum: ['data-uri', 'plain'] },
  },
} as const;
