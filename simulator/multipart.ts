import type { Exchange } from './types';

export interface FormFile {
  field: string;
  filename: string;
  type: string;
  data: Buffer;
}

export interface ParsedForm {
  /** Text fields; a repeated field (or `name[]`) becomes an array under its name without `[]`. */
  fields: Record<string, string | string[]>;
  files: FormFile[];
}

/** The request's multipart/form-data body, parsed by undici's own parser; undefined for any other content type. */
export async function readForm(exchange: Exchange): Promise<ParsedForm | undefined> {
  const type = exchange.req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data/i.test(type)) return undefined;
  const form = await new Response(exchange.rawBody, { headers: { 'content-type': type } }).formData();
  const fields: ParsedForm['fields'] = {};
  const files: FormFile[] = [];
  for (const [name, value] of form) {
    if (typeof value !== 'string') {
      files.push({ field: name, filename: value.name, type: value.type, data: Buffer.from(await value.arrayBuffer()) });
      continue;
    }
    const key = name.endsWith('[]') ? name.slice(0, -2) : name;
    const known = fields[key];
    if (known === undefined) fields[key] = name.endsWith('[]') ? [value] : value;
    else fields[key] = Array.isArray(known) ? [...known, value] : [known, value];
  }
  return { fields, files };
}
