/** The parts of a base64 `data:` URI. */
export interface DataUri {
  mediaType: string;
  data: string;
}

/**
 * `data:<mime>[;param…];base64,<data>` → `{mediaType, data}`; undefined when the text is not a base64
 * data URI (then it is a URL). Parsed with indexOf, not a regex: the payload may be megabytes long.
 */
export function parseDataUri(uri: string): DataUri | undefined {
  if (!uri.startsWith('data:')) return undefined;
  const comma = uri.indexOf(',');
  if (comma === -1) return undefined;
  const params = uri.slice(5, comma).split(';');
  if (params.length < 2 || params[params.length - 1].trim().toLowerCase() !== 'base64') return undefined;
  const mediaType = params[0].trim().toLowerCase() || 'application/octet-stream';
  return { mediaType, data: uri.slice(comma + 1) };
}

/**
 * True for any `data:` URI, readable or not. One that `parseDataUri` cannot read (no comma, not base64) is
 * malformed client input, never a URL an upstream or the gateway could fetch.
 */
export function isDataUri(text: string): boolean {
  return text.startsWith('data:');
}

/** `{mediaType, data}` → `data:<mime>;base64,<data>`. */
export function toDataUri(mediaType: string, data: string): string {
  return `data:${mediaType};base64,${data}`;
}
