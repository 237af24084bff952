import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';

/** Vendor wire fixtures (a copy of the shared reference set), e.g. `openai-chat/stream-basic.sse`. */
export const FIXTURES_DIR = path.resolve(__dirname, '../fixtures');

export function fixtureBytes(name: string): Buffer {
  return readFileSync(path.join(FIXTURES_DIR, name));
}

export function fixtureText(name: string): string {
  return fixtureBytes(name).toString('utf8');
}

export function fixtureJson<T = Record<string, unknown>>(name: string): T {
  return JSON.parse(fixtureText(name)) as T;
}

/** Replays bytes in uneven chunks (sizes cycle through `chunkSize`, 1, 3·chunkSize) so parsers meet split events. */
export function replayChunks(bytes: Buffer, chunkSize = 7): Readable {
  const chunks: Buffer[] = [];
  const sizes = [chunkSize, 1, chunkSize * 3];
  for (let offset = 0, i = 0; offset < bytes.length; i += 1) {
    const size = sizes[i % sizes.length];
    chunks.push(bytes.subarray(offset, offset + size));
    offset += size;
  }
  return Readable.from(chunks);
}

export const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8' };
