/**
 * Gemini 1.x and 2.x models take `thinkingBudget` (not `thinkingLevel`) and never need thought
 * signatures; Gemini 3 and unknown names (aliases such as `gemini-flash-latest`) are treated as current.
 */
export function isPreGemini3Model(model: string): boolean {
  return /^(?:models\/)?gemini-[12](?:\.\d+)?-/.test(model);
}
