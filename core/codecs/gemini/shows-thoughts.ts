import type { RequestEcho } from '../../unified/unified-request';

/** A gateway `-thinking` variant, also combined with the pool's `-max` (`-thinking-max`, `-max-thinking`). */
const THINKING_VARIANT = /-thinking(?:-max)?$/;

/**
 * Whether a Gemini client gets thought parts. Gemini returns them only when `includeThoughts` is true (it defaults
 * to false), so a client reading `parts[0].text` gets the answer; the gateway's `-thinking` model variants ask for
 * them (DECISIONS §7) unless the client says otherwise.
 */
export function showsThoughts(request: RequestEcho): boolean {
  const asked = request.reasoning?.includeThoughts;
  return asked ?? THINKING_VARIANT.test(request.model);
}
