import OpenAI from 'openai';
import type { StreamDecoder, StreamEncoder } from '../../../core/codecs/codec';
import { createSseParser } from '../../../core/sse/parse-sse';
import { formatSseEvent } from '../../../core/sse/format-sse-event';
import type { WireEvent } from '../../../core/sse/wire-event';
import type { UnifiedStreamEvent } from '../../../core/unified/unified-stream-event';

/** Frames an SSE body fed in pieces of uneven sizes (chunkSize, 1, 3·chunkSize…), so events split anywhere. */
export function frameSse(body: string, chunkSize: number): WireEvent[] {
  const bytes = Buffer.from(body, 'utf8');
  const parser = createSseParser();
  const events: WireEvent[] = [];
  const sizes = [chunkSize, 1, chunkSize * 3];
  for (let offset = 0, i = 0; offset < bytes.length; i += 1) {
    const size = sizes[i % sizes.length];
    events.push(...parser.push(bytes.subarray(offset, offset + size)));
    offset += size;
  }
  events.push(...parser.end());
  return events;
}

/** Runs a whole upstream SSE body through a stream decoder, `end()` included. */
export function decodeSse(decoder: StreamDecoder, body: string, chunkSize = 7): UnifiedStreamEvent[] {
  const events = frameSse(body, chunkSize).flatMap((e) => decoder.push(e));
  return [...events, ...decoder.end()];
}

/** Runs unified events through a stream encoder. */
export function encodeEvents(encoder: StreamEncoder, events: UnifiedStreamEvent[]): WireEvent[] {
  return events.flatMap((e) => encoder.push(e));
}

/** Wire events → the exact body a client receives. */
export function toSseBody(events: WireEvent[]): string {
  return events.map((event) => formatSseEvent(event)).join('');
}

/** The JSON payloads of data events (`[DONE]` excluded). */
export function payloads(events: WireEvent[]): Array<Record<string, unknown>> {
  return events.filter((e) => e.data !== '[DONE]').map((e) => JSON.parse(e.data) as Record<string, unknown>);
}

export interface MockedOpenAi {
  client: OpenAI;
  /** Bodies the SDK sent, JSON-parsed. */
  requests: unknown[];
}

/**
 * An official `openai` client whose fetch answers every call with `body` (a JSON value, or an SSE text
 * when `sse` is true), delivered in small chunks so the SDK's own stream parser meets split events.
 */
export function mockOpenAi(body: unknown, options: { sse?: boolean; status?: number } = {}): MockedOpenAi {
  const requests: unknown[] = [];
  const fetchMock = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    if (typeof init?.body === 'string') requests.push(JSON.parse(init.body));
    const text = options.sse ? String(body) : JSON.stringify(body);
    const bytes = new TextEncoder().encode(text);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 13) controller.enqueue(bytes.subarray(i, i + 13));
        controller.close();
      },
    });
    return new Response(stream, {
      status: options.status ?? 200,
      headers: { 'content-type': options.sse ? 'text/event-stream' : 'application/json' },
    });
  };
  const client = new OpenAI({ apiKey: 'x', baseURL: 'http://sdk.test/v1', fetch: fetchMock, maxRetries: 0 });
  return { client, requests };
}
