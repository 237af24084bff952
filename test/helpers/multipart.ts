import type nock from 'nock';

/** A multipart body as a test sees it: text fields in order and files with their bytes. */
export interface ParsedMultipart {
  fields: Array<[string, string]>;
  files: Array<{ field: string; filename: string; type: string; data: Buffer }>;
}

/** Parses multipart/form-data with undici's own parser (independent of the gateway's encoder). */
export async function parseMultipart(bytes: Buffer, contentType: string): Promise<ParsedMultipart> {
  const form = await new Response(bytes, { headers: { 'content-type': contentType } }).formData();
  const parsed: ParsedMultipart = { fields: [], files: [] };
  for (const [name, value] of form) {
    if (typeof value === 'string') parsed.fields.push([name, value]);
    else parsed.files.push({ field: name, filename: value.name, type: value.type, data: Buffer.from(await value.arrayBuffer()) });
  }
  return parsed;
}

/** nock hands reply functions a binary body as hex text, anything else as UTF-8 text. */
export function nockBodyBytes(body: unknown): Buffer {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return /^(?:[0-9a-f]{2})+$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'utf8');
}

/** A tiny valid PNG (1×1), the image of every fixture. */
export const TINY_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP4HyX/HwAGTAJ4THyr0gAAAABJRU5ErkJggg==', 'base64');

/**
 * Answers a nock interceptor with `answer` and keeps the request's content type and bytes: `sent()` parses them as a
 * multipart form, `type()` gives the content type.
 */
export function replyCapturing(interceptor: nock.Interceptor, answer: unknown): { scope: nock.Scope; type(): string; sent(): Promise<ParsedMultipart> } {
  let type = '';
  let bytes: Buffer = Buffer.alloc(0);
  const scope = interceptor.reply(function (_uri, body) {
    type = String(this.req.headers['content-type']);
    bytes = nockBodyBytes(body);
    return [200, answer as nock.Body];
  });
  return { scope, type: () => type, sent: () => parseMultipart(bytes, type) };
}
