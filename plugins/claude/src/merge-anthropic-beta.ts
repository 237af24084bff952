/** The beta flag that lets an OAuth access token (claude.ai subscription) call the Messages API. */
export const OAUTH_BETA = 'oauth-2025-04-20';

/** Adds `flag` to a comma-separated `anthropic-beta` list, keeping the client's flags and their order. */
export function mergeAnthropicBeta(existing: string | undefined, flag: string): string {
  const flags = (existing ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  if (flags.includes(flag)) return existing ?? flag;
  return [...flags, flag].join(',');
}
