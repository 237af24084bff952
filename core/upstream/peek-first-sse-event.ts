import { Readable } from 'node:stream';
import { createSseParser } from '../sse/parse-sse';
import { followBody } from './follow-body';
import type { WireEvent } from '../sse/wire-event';
import type { UpstreamResponse } from '../hooks/plugin-api';

/** How much of a stream is read, at most, looking for its first event. */
const PEEK_LIMIT_BYTES = 64 * 1024;
/** Events passed over (see PeekOptions.skip) at most. */
const MAX_SKIPPED = 4;

export interface PeekOptions {
  /**
   * Events that say nothing yet (a chat stream's role-only opening chunk), passed over to the next: a service may
   * send one before the error that is its real answer. At most four are; the fifth event is the first.
   */
  skip?(event: WireEvent): boolean;
  /**
   * How long to wait for the first event before handing the stream over unjudged: a model thinking without streaming
   * (o3, gpt-5) sends nothing for a minute, and a client waiting on the peek got no byte, not even the translated
   * stream's keep-alive. An error answer comes at once.
   */
  waitMs?: number;
}

export interface PeekedStream {
  /** The stream's first event (not skipped); undefined when it ended, or PEEK_LIMIT_BYTES or `waitMs` went by, before one. */
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
export function peekFirstSseEvent(response: UpstreamResponse, options: PeekOptions = {}): Promise<PeekedStream> {
  const source = response.body;
  const parser = createSseParser();
  const read: Buffer[] = [];
  let bytes = 0;
  let skipped = 0;
  /** The first event of these not to pass over; undefined when all of them may be. */
  const firstOf = (events: WireEvent[]): WireEvent | undefined => {
    for (const event of events) {
      if (!options.skip || skipped >= MAX_SKIPPED || !options.skip(event)) return event;
      skipped += 1;
    }
    return undefined;
  };
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const done = (first: WireEvent | undefined): void => {
      clearTimeout(timer);
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onError);
      source.pause();
      resolve({ first, response: { ...response, body: replay(read, source) } });
    };
    const onData = (chunk: Buffer): void => {
      read.push(chunk);
      bytes += chunk.length;
      const first = firstOf(parser.push(chunk));
      if (first !== undefined || bytes >= PEEK_LIMIT_BYTES) done(first);
    };
    const onEnd = (): void => done(firstOf(parser.end()));
    const onError = (error: unknown): void => {
      clearTimeout(timer);
      source.off('data', onData);
      source.off('end', onEnd);
      reject(error);
    };
    if (options.waitMs !== undefined) timer = setTimeout(() => done(undefined), options.waitMs);
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
