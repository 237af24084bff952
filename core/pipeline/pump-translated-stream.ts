import type { StreamDecoder, StreamEncoder } from '../codecs/codec';
import { GatewayError, toGatewayError } from '../errors/gateway-error';
import type { RequestContext, StreamStage, UpstreamResponse } from '../hooks/plugin-api';
import { createJsonArrayParser } from '../sse/parse-json-array';
import { createSseParser } from '../sse/parse-sse';
import type { WireEvent } from '../sse/wire-event';
import type { UnifiedStreamEvent } from '../unified/unified-stream-event';
import { abortSourceOf } from '../http/request-context';
import type { ClientStreamWriter } from './client-stream-writer';

export interface TranslatedStream {
  upstream: UpstreamResponse;
  decoder: StreamDecoder;
  stages: StreamStage[];
  encoder: StreamEncoder;
  writer: ClientStreamWriter;
  ctx: RequestContext;
}

/**
 * Upstream bytes → framing parser → upstream decoder → stages → client encoder → client, event by event as
 * they arrive. An upstream failure after the start becomes the client format's error event; a client
 * disconnect ends the loop (the abort signal has already torn the upstream down).
 * The events of one upstream read leave in one write, except until the client has its first event: one read can
 * carry a whole answer, and the client's time to first token should not include translating the rest of it.
 */
export async function pumpTranslatedStream({ upstream, decoder, stages, encoder, writer, ctx }: TranslatedStream): Promise<void> {
  const parser = isEventStream(upstream.headers['content-type']) ? createSseParser() : createJsonArrayParser();
  let done = false;

  const clientGone = abortSourceOf(ctx);
  /** The client has had an event. */
  let written = false;
  const emit = (events: UnifiedStreamEvent[]): void => {
    let staged = events;
    for (const stage of stages) if (stage.event) staged = staged.flatMap((event) => stage.event!(event));
    const wire: WireEvent[] = [];
    for (const event of staged) {
      if (done) break;
      for (const out of encoder.push(event)) wire.push(out);
      if (event.type === 'finish' || event.type === 'error') done = true;
    }
    if (wire.length > 0) written = true;
    writer.write(wire);
  };
  const decode = (wireEvents: WireEvent[]): UnifiedStreamEvent[] => {
    const out: UnifiedStreamEvent[] = [];
    for (const wireEvent of wireEvents) for (const event of decoder.push(wireEvent)) out.push(event);
    return out;
  };

  try {
    for await (const chunk of upstream.body as AsyncIterable<Buffer>) {
      const wireEvents = parser.push(chunk);
      let first = 0;
      while (!written && !done && first < wireEvents.length) emit(decode([wireEvents[first++]]));
      if (!done) emit(decode(first === 0 ? wireEvents : wireEvents.slice(first)));
      if (done) break;
      await writer.drained();
    }
    if (!done && !clientGone.aborted) {
      const tail = decode(parser.end());
      for (const event of decoder.end()) tail.push(event);
      for (const stage of stages) if (stage.end) for (const event of stage.end()) tail.push(event);
      emit(tail);
    }
    if (!done && !clientGone.aborted) {
      emit([{ type: 'error', error: new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream stream ended before the response was complete') }]);
    }
  } catch (error) {
    if (!clientGone.aborted && !done) {
      const gatewayError = toGatewayError(error);
      ctx.log.warn('upstream stream failed', { code: gatewayError.code, message: gatewayError.message });
      emit([{ type: 'error', error: gatewayError }]);
    }
  } finally {
    if (!upstream.body.destroyed) upstream.body.destroy();
    writer.end();
  }
}

function isEventStream(contentType: string | string[] | undefined): boolean {
  const value = Array.isArray(contentType) ? contentType[0] : contentType;
  return value === undefined || value.includes('text/event-stream');
}
