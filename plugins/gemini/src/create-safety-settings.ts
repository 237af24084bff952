import type { GeminiSafetySetting } from './options';

/** Deprecated by Google ("election filter no longer supported") and still accepted; dropped once an upstream refuses it. */
export const CIVIC_INTEGRITY = 'HARM_CATEGORY_CIVIC_INTEGRITY';

/** ctx.state key: the gateway added its default safety settings to this request (the upstream call may amend them). */
export const ADDED_DEFAULT_SAFETY = 'gemini.addedDefaultSafety';

/**
 * Every harm category the Gemini API lets callers adjust, switched `OFF` (the threshold that skips the filter,
 * where `BLOCK_NONE` still runs it): the four documented ones plus the deprecated civic-integrity one. The
 * Vertex-only `HARM_CATEGORY_IMAGE_*` and the undocumented `HARM_CATEGORY_JAILBREAK` would be refused.
 * @see https://ai.google.dev/gemini-api/docs/safety-settings
 */
export const DEFAULT_SAFETY_SETTINGS: readonly GeminiSafetySetting[] = Object.freeze([
  { category: 'HARM_CATEGORY_HARASSMENT', threshold: 'OFF' },
  { category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'OFF' },
  { category: 'HARM_CATEGORY_SEXUALLY_EXPLICIT', threshold: 'OFF' },
  { category: 'HARM_CATEGORY_DANGEROUS_CONTENT', threshold: 'OFF' },
  { category: CIVIC_INTEGRITY, threshold: 'OFF' },
]);

/**
 * The safety settings the gateway adds to the requests it shapes: the operator's, else the all-off default. The
 * default loses its civic-integrity entry for the rest of the process once an upstream refuses that category.
 */
export function createSafetySettings(configured: readonly GeminiSafetySetting[] | undefined) {
  let civicRefused = false;
  return {
    /** True when the gateway's own default is in use (the only list it may amend). */
    isDefault: configured === undefined,
    current(): GeminiSafetySetting[] {
      if (configured) return configured.map((setting) => ({ ...setting }));
      return DEFAULT_SAFETY_SETTINGS.filter((setting) => !civicRefused || setting.category !== CIVIC_INTEGRITY).map((setting) => ({ ...setting }));
    },
    /**
     * The list for a request the gateway builds whole (a translation, an image, a search), with the request marked
     * when it is the default: the caller then resends it without civic integrity if the upstream refuses that.
     */
    forRequest(ctx: { state: Map<string, unknown> }): GeminiSafetySetting[] {
      if (configured === undefined) ctx.state.set(ADDED_DEFAULT_SAFETY, true);
      return this.current();
    },
    dropCivic(): void {
      civicRefused = true;
    },
  };
}

export type SafetySettings = ReturnType<typeof createSafetySettings>;
