import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSseParser } from '../../../../core/sse/parse-sse';
import type { WireEvent } from '../../../../core/sse/wire-event';
import { FIXTURES_DIR } from '../../../helpers/fixtures';

const FIXTURES = FIXTURES_DIR + '/anthropic-messages';

/** A fixture body, JSON-parsed. */
export function readMessagesFixture(name: string): unknown {
  return JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'));
}

/** The raw bytes of an SSE fixture. */
export function readMessagesSse(name: string): string {
  return readFileSync(join(FIXTURES, name), 'utf8');
}

/** Frames an SSE body fed in pieces of `chunkSize` bytes, so events split at arbitrary boundaries. */
export function frameSse(body: string | Buffer, chunkSize: number): WireEvent[] {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const parser = createSseParser();
  const events: WireEvent[] = [];
  for (let i = 0; i < bytes.length; i += chunkSize) events.push(...parser.push(bytes.subarray(i, i + chunkSize)));
  events.push(...parser.end());
  return events;
}

/** Wire events → the exact body a client receives. */
export function toSseBody(events: WireEvent[]): string {
  return events.map((e) => `${e.event ? `event: ${e.event}\n` : ''}data: ${e.data}\n\n`).join('');
}
