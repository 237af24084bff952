import { randomBytes } from 'node:crypto';

/** A text field or a file of a multipart/form-data body. */
export type MultipartPart =
  | { name: string; value: string }
  | { name: string; filename: string; mediaType: string; data: Buffer };

/**
 * Encodes a multipart/form-data body (RFC 7578) for the upstream client, which sends Buffers. The boundary carries
 * 144 random bits, so it cannot occur in a payload by chance. Quotes and line breaks in names are percent-encoded,
 * as browsers and undici do.
 */
export function encodeMultipart(parts: readonly MultipartPart[]): { body: Buffer; contentType: string } {
  const boundary = `----GatewayFormBoundary${randomBytes(18).toString('base64url')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${escapeName(part.name)}"`;
    if ('data' in part) {
      head += `; filename="${escapeName(part.filename)}"\r\nContent-Type: ${part.mediaType.replace(/[\r\n]/g, '')}\r\n\r\n`;
      chunks.push(Buffer.from(head, 'utf8'), part.data, Buffer.from('\r\n'));
    } else {
      chunks.push(Buffer.from(`${head}\r\n\r\n${part.value}\r\n`, 'utf8'));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

function escapeName(name: string): string {
  return name.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22');
}
