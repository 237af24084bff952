/** A key written twice in one object of a config file: where, so that the operator can find it. */
export interface DuplicateKey {
  /** The object's path (`platforms`), `` for the top level. */
  path: string;
  key: string;
  /** 1-based line of the second occurrence. */
  line: number;
}

interface Frame {
  /** Keys seen so far; undefined for an array. */
  keys?: Set<string>;
  path: string;
  /** The next string in this object is a key (after `{` or `,`). */
  expectingKey: boolean;
  /** The key whose value is being read, for the path of a nested object. */
  lastKey?: string;
}

/**
 * The first key written twice in one object of valid JSON text, or undefined. JSON.parse keeps the last of them
 * without a word: a platform block copied and not renamed would replace the first one, credentials and all. Run
 * after JSON.parse accepted the text, so the text is well-formed here.
 */
export function findDuplicateJsonKey(text: string): DuplicateKey | undefined {
  const stack: Frame[] = [];
  let line = 1;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    // A line ends in LF, CRLF or a lone CR.
    if (char === '\n' || (char === '\r' && text[i + 1] !== '\n')) line += 1;
    else if (char === '"') {
      const end = closingQuote(text, i);
      const frame = stack.at(-1);
      if (frame?.keys && frame.expectingKey) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (frame.keys.has(key)) return { path: frame.path, key, line };
        frame.keys.add(key);
        frame.lastKey = key;
        frame.expectingKey = false;
      }
      i = end;
    } else if (char === '{' || char === '[') {
      const parent = stack.at(-1);
      const name = parent?.keys ? (parent.lastKey ?? '') : parent ? `${parent.path}[]` : '';
      const path = parent?.keys && parent.path ? `${parent.path}.${name}` : name;
      stack.push(char === '{' ? { keys: new Set(), path, expectingKey: true } : { path, expectingKey: false });
    } else if (char === '}' || char === ']') {
      stack.pop();
    } else if (char === ',') {
      const frame = stack.at(-1);
      if (frame?.keys) frame.expectingKey = true;
    }
  }
  return undefined;
}

/** The index of the quote that closes the string opening at `start` (escapes skipped). */
function closingQuote(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i += 1) {
    if (text[i] === '\\') i += 1;
    else if (text[i] === '"') return i;
  }
  return text.length - 1;
}
