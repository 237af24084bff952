/** `{ "apiKey": "…" }`: the credential entry of every API-key platform, for plugin option schemas. */
export const API_KEY_CREDENTIAL_SCHEMA = Object.freeze({
  type: 'object',
  required: ['apiKey'],
  additionalProperties: false,
  properties: { apiKey: { type: 'string', minLength: 1 } },
} as const);

/** `credentials: [...]` made of the given entry schemas (one of them per entry). */
export function credentialListSchema(...entries: object[]): object {
  return { type: 'array', items: entries.length === 1 ? entries[0] : { anyOf: entries } };
}
