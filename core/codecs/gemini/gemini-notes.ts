/**
 * Keys of `extensions.gemini` that are notes from the Gemini decoder to the Gemini encoder, not
 * request fields: the encoder reads them and never copies them into a body. Every other key of
 * `extensions.gemini` is a GenerateContentRequest field (safetySettings, cachedContent …).
 */
export const GEMINI_NOTES = Object.freeze({
  /** Names of functions the client declared with `parametersJsonSchema`; they go back in that form. */
  jsonSchemaTools: '_parametersJsonSchemaTools',
});
