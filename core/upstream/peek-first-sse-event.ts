import { Readable } from 'node:stream';
import { createSseParser } from '../sse/parse-sse';
import type { WireEvent } from '../sse/wire-event';
import type { UpstreamResponse } from '../hooks/plugin-api';

const ignore = (): void => undefined;

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
    const done = (first: WireEvent | undefined, ended: boolean): void => {
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onError);
      source.pause();
      resolve({ first, response: { ...response, body: replay(read, source, ended) } });
    };
    const onData = (chunk: Buffer): void => {
      read.push(chunk);
      bytes += chunk.length;
      const events = parser.push(chunk);
      if (events.length > 0 || bytes >= PEEK_LIMIT_BYTES) done(events[0], false);
    };
    const onEnd = (): void => done(parser.end()[0], true);
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

/** The bytes already read, then whatever the source still has. */
function replay(read: Buffer[], source: Readable, ended: boolean): Readable {
  const body = new Readable({
    read() {
      source.resume();
    },
    destroy(error, callback) {
      if (!source.destroyed) source.destroy();
      callback(error);
    },
  });
  // As upstream bodies do: errors reach consumers that listen; one that does not must not crash the process.
  body.on('error', ignore);
  if (read.length > 0) body.push(read.length === 1 ? read[0] : Buffer.concat(read));
  if (ended) {
    body.push(null);
    return body;
  }
  let sourceEnded = false;
  source.on('data', (chunk: Buffer) => {
    if (!body.push(chunk)) source.pause();
  });
  source.once('end', () => {
    sourceEnded = true;
    body.push(null);
  });
  source.once('error', (error) => body.destroy(error));
  source.once('close', () => {
    if (!sourceEnded && !body.destroyed) body.destroy(Object.assign(new Error('premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
  });
  return body;
}
