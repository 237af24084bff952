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
}

export const geminiOptionsSchema = {
  type: 'object',
  required: ['credentials'],
  properties: {
    credentials: {
      type: 'array',
      items: {
        type: 'object',
        required: ['apiKey'],
        additionalProperties: false,
        properties: { apiKey: { type: 'string', minLength: 1 } },
      },
    },
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
  },
} as const;
