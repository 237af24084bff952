import type { TokenPatterns } from './classify-token-failure';

/** Shorter strings are left: they cannot spell a word a pattern looks for, and blanking them would hide the upstream's own. */
const MIN_ECHO_CHARS = 3;
/** Bounds of the search for echoes, past which every word a pattern reads is blanked (see blankRequestEchoes). */
const MAX_REQUEST_STRINGS = 20_000;
const MAX_ECHOES = 200;

/**
 * An upstream error, lower-cased, as the patterns are matched against it, with what it quotes of the request it
 * answers blanked out. Upstream messages quote what the client sent ("The model `my-suspended-model` does not exist",
 * "Invalid key in 'logit_bias': banned"), and a client must never take tokens out of service by naming a model or a
 * parameter after a pattern.
 * - A JSON body is read as its string values, decoded: an echo the upstream escaped (`\"`, `\\`, `\u00e9`) is then
 *   the client's string again. Any other body is taken as it is.
 * - Only request strings (values and keys) that a pattern matches by themselves are blanked, as a whole and, for a
 *   quote cut short, each span a pattern matches in them: ordinary words (`low`, `user`, `model`) stay, so
 *   "credit balance is too low" still reads as a limit when the request said `reasoning_effort: "low"`.
 * Lower-cased on both sides so that an echo the upstream normalised is found as well; the patterns are
 * case-insensitive.
 */
export function blankRequestEchoes(text: string, body: Buffer | undefined, patterns: TokenPatterns): string {
  let blanked = decodedStrings(text).toLowerCase();
  if (!body || body.length === 0) return blanked;
  const all = [...patterns.anomaly, ...patterns.limit];
  // Nothing in the error a pattern would read: nothing to blank, and the request need not be read at all.
  if (!all.some((pattern) => pattern.test(blanked))) return blanked;
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    return blanked;
  }
  // A request with more of them than can be looked for in the error one by one at a reasonable cost (300,000
  // strings against a 256 KB error took 21 s of the event loop): each word a pattern reads in the error is blanked
  // instead when the request's text has it too. The upstream's own words (a "suspended" the request never said)
  // still count.
  const strings = collectStrings(value);
  if (strings.size > MAX_REQUEST_STRINGS) return blankMatchesTheRequestHas(blanked, all, strings);
  const echoes = new Set<string>();
  for (const string of strings) {
    if (!all.some((pattern) => pattern.test(string))) continue;
    // One longer than the text cannot occur in it whole; a span of it may.
    if (string.length <= blanked.length) echoes.add(string);
    for (const pattern of all) {
      const span = pattern.exec(string)?.[0];
      if (span && span.length >= MIN_ECHO_CHARS) echoes.add(span);
    }
  }
  if (echoes.size > MAX_ECHOES) return blankMatchesTheRequestHas(blanked, all, strings);
  // Longest first: a prompt that contains a short value goes as a whole.
  for (const echo of [...echoes].sort((a, b) => b.length - a.length)) {
    if (blanked.includes(echo)) blanked = blanked.split(echo).join(' ');
  }
  return blanked;
}

/** The text with each span a pattern matches blanked where the request's text (lower-cased) has that span too. */
function blankMatchesTheRequestHas(text: string, patterns: readonly RegExp[], strings: ReadonlySet<string>): string {
  const requestText = [...strings].join('\n');
  let out = text;
  for (const pattern of patterns) {
    out = out.replace(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`), (span) => (requestText.includes(span) ? ' ' : span));
  }
  return out;
}

/**
 * The string values of a JSON body, one per line (escapes resolved), and its numbers as `key: value` lines (a service
 * whose only fixed mark is a number, `{"error_code":18,…}`, is matched by `error_code: 18`); the text itself when it is
 * not JSON. Keys are not read otherwise: a body's field names must not read as a pattern's words.
 */
function decodedStrings(text: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  if (value === null || typeof value !== 'object') return text;
  const lines: string[] = [];
  visitStrings(value, false, (string) => lines.push(string), (key, number) => lines.push(`${key}: ${number}`));
  return lines.join('\n');
}

/**
 * The request's strings and keys of MIN_ECHO_CHARS or more, lower-cased, and its numbers as the `key: value` lines the
 * error is read with (a client's `{"error_code": 18}` quoted back must not read as the upstream's own code).
 */
function collectStrings(value: unknown): Set<string> {
  const into = new Set<string>();
  const add = (string: string): void => {
    if (string.length >= MIN_ECHO_CHARS) into.add(string.toLowerCase());
  };
  visitStrings(value, true, add, (key, number) => add(`${key}: ${number}`));
  return into;
}

/** A number of an object in the walk below, with its key. */
class KeyedNumber {
  constructor(
    readonly key: string,
    readonly value: number,
  ) {}
}

/**
 * Every string in a parsed JSON value, in document order, and the object keys too when `keys`; with `visitNumber`,
 * the numbers that are an object's values, in their place. A stack, not recursion: an upstream's error body may nest
 * deeper than the call stack goes.
 */
function visitStrings(value: unknown, keys: boolean, visit: (string: string) => void, visitNumber?: (key: string, number: number) => void): void {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') visit(item);
    else if (item instanceof KeyedNumber) visitNumber?.(item.key, item.value);
    else if (Array.isArray(item)) for (let i = item.length - 1; i >= 0; i -= 1) pending.push(item[i]);
    else if (item !== null && typeof item === 'object') {
      const entries = Object.entries(item);
      for (let i = entries.length - 1; i >= 0; i -= 1) {
        const [key, entry] = entries[i];
        pending.push(typeof entry === 'number' && visitNumber ? new KeyedNumber(key, entry) : entry);
        // Pushed after its value, so popped (visited) before it.
        if (keys) pending.push(key);
      }
    }
  }
}
