/**
 * A pool token as the admin view and error texts show it: the last 4 characters only (DECISIONS §9). Unlike
 * core's `maskSecret`, no prefix is kept: account tokens often carry the account's name in front.
 */
export function maskToken(token: string): string {
  return token.length <= 8 ? '****' : `...${token.slice(-4)}`;
}

/** Every occurrence of the given tokens in a text, masked. */
export function maskTokensIn(text: string, tokens: Iterable<string>): string {
  let out = text;
  for (const token of tokens) if (token.length > 0 && out.includes(token)) out = out.split(token).join(maskToken(token));
  return out;
}
