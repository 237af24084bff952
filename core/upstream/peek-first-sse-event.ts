import { Readable } from 'node:stream';
import { createSseParser } from '../sse/parse-sse';
import { followBody } from './follow-body';
import type { WireEvent } from '../sse/wire-event';
import type { UpstreamResponse } from '../hooks/plugin-api';

/** How much of a stream is read, at most, looking for its first event. */
const PEEK_LIMIT_BYTES = 64 * 1024;

export interface PeekedStream {
  /** The stream's first event; undefined when it ended, or PEEK_LIMIT_BYTES went by, before one. */
  first: WireEvent | undefined;
  /** The same answer, its body still read from its first byte. */
  response: UpstreamResponse;
}

/**
 * Reads an SSE answer up to its first event (comments such as pings skipped), so that a caller can judge it before
 * anything reaches the client: some services answer 200 and then an error event. The answer it resolves with
 * replays the bytes read and then the rest of the body, which it stays the owner of (destroying it destroys the
 * body). Rejects with the body's error.
 */
export function peekFirstSseEvent(response: UpstreamResponse): Promise<PeekedStream> {
  const source = response.body;
  const parser = createSseParser();
  const read: Buffer[] = [];
  let bytes = 0;
  return new Promise((resolve, reject) => {
    const done = (first: WireEvent | undefined): void => {
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onError);
      source.pause();
      resolve({ first, response: { ...response, body: replay(read, source) } });
    };
    const onData = (chunk: Buffer): void => {
      read.push(chunk);
      bytes += chunk.length;
      const events = parser.push(chunk);
      if (events.length > 0 || bytes >= PEEK_LIMIT_BYTES) done(events[0]);
    };
    const onEnd = (): void => done(parser.end()[0]);
    const onError = (error: unknown): void => {
      source.off('data', onData);
      source.off('end', onEnd);
      reject(error);
    };
    source.on('end', onEnd);
    source.on('error', onError);
    source.on('data', onData);
  });
}

/** The bytes already read, then whatever the source still has (see followBody). */
function replay(read: Buffer[], source: Readable): Readable {
  const body: Readable = followBody(source, { onFail: (error) => body.destroy(error as Error) }, read.length === 1 ? read[0] : Buffer.concat(read));
  return body;
}
