/** Options of an OpenAI-compatible platform, beside the base keys every platform has (plugin, baseUrl, timeouts, models). */
export interface OpenAiOptions {
  /** API keys, used round-robin. An empty list makes every call answer 503. */
  credentials: Array<{ apiKey: string }>;
}

export const openAiOptionsSchema = {
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
  },
} as const;
