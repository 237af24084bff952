import type { StreamDecoder, StreamEncoder } from '../codecs/codec';
import { GatewayError, toGatewayError } from '../errors/gateway-error';
import { maskGatewayError, type SecretMasker } from '../errors/mask-gateway-error';
import type { RequestContext, StreamStage, UpstreamResponse } from '../hooks/plugin-api';
import { isWholeEventData } from '../sse/is-whole-event-data';
import { createJsonArrayOrObjectParser } from '../sse/parse-json-array';
import { createSseParser } from '../sse/parse-sse';
import type { StreamFraming, WireEvent } from '../sse/wire-event';
import type { UnifiedStreamEvent } from '../unified/unified-stream-event';
import { abortSourceOf } from '../http/request-context';
import { closeUpstreamBody } from '../upstream/close-upstream-body';
import { consumeBody } from './consume-body';
import { tooDeepAnswer } from '../upstream/read-upstream-json';
import { isParsableJsonTooDeep, MAX_UPSTREAM_JSON_DEPTH } from '../validation/scan-json-bytes';
import { createCredentialMasker } from '../errors/mask-echoed-credentials';
import type { ClientStreamWriter } from './client-stream-writer';

/**
 * How often a silent stream gets a keep-alive event: within two of these a client hears from the gateway, well inside
 * Claude Code's stream watchdog (90 s) and a proxy's usual 60 s idle timeout. Anthropic pings every 15–30 s.
 */
export const KEEP_ALIVE_MS = 15_000;

export interface TranslatedStream {
  upstream: UpstreamResponse;
  /** How the upstream frames its events (see upstreamStreamFraming). */
  framing: StreamFraming;
  decoder: StreamDecoder;
  stages: StreamStage[];
  encoder: StreamEncoder;
  writer: ClientStreamWriter;
  ctx: RequestContext;
  /** Upstream error events can quote the credential they were sent with. */
  maskSecrets: SecretMasker;
}

/**
 * Upstream bytes → framing parser → upstream decoder → stages → client encoder → client, event by event as
 * they arrive. An upstream failure after the start becomes the client format's error event; a client
 * disconnect ends the pump (the abort signal has already torn the upstream down).
 * The events of one upstream read leave in one write, except until the client has its first event: one read can
 * carry a whole answer, and the client's time to first token should not include translating the rest of it.
 */
export async function pumpTranslatedStream({ upstream, framing, decoder, stages, encoder, writer, ctx, maskSecrets }: TranslatedStream): Promise<void> {
  const parser = framing === 'sse' ? createSseParser() : createJsonArrayOrObjectParser();
  const clientGone = abortSourceOf(ctx);
  /** The client's answer is complete (its finish or error event is out or on its way). */
  let done = false;
  /** Client events not written yet. */
  let pending: WireEvent[] = [];
  /** Writes of events so far (none: the client has had no event); the keep-alive timer tells a silent stream by it. */
  let writes = 0;

  /** A platform's stage threw: logged, and the answer ends with an error event of the gateway's own (a neutral 500). */
  const stageFailure = (error: unknown): UnifiedStreamEvent => {
    ctx.log.error('stream stage failed', { error: error instanceof Error ? error.message : String(error) });
    return { type: 'error', error: toGatewayError(error) };
  };

  const encode = (events: UnifiedStreamEvent[]): void => {
    let staged: UnifiedStreamEvent[];
    try {
      staged = events;
      for (const stage of stages) if (stage.event) staged = staged.flatMap((event) => stage.event!(event));
    } catch (error) {
      // Not handed to the stages again: a stage failing on every event failed on that one too (an empty 200 stream).
      staged = [stageFailure(error)];
    }
    for (const event of staged) {
      if (done) break;
      // Nothing has reached the client, not even its status: the failure is thrown, to be answered with a status of
      // its own (a 502, the upstream's 429) rather than as a 200 stream that holds only an error event.
      if (event.type === 'error' && !writer.started() && pending.length === 0) throw event.error;
      let shown = event;
      if (event.type === 'error') {
        shown = { type: 'error', error: maskGatewayError(event.error, maskSecrets) };
        // The answer under way ends with an error event: said in the log, and in its access line.
        ctx.failedMidway = event.error.code.toLowerCase();
        ctx.log.warn('stream ended with an error event', { code: event.error.code, reason: shown.error.message });
      }
      let encoded: WireEvent[];
      try {
        encoded = encoder.push(shown);
      } catch (error) {
        if (event.type === 'error') throw error;
        // The encoder refused the answer (a bound passed): it ends with the format's error event, here, where a throw
        // reached the body's catch and an answer whose upstream had finished was ended as whole, its cut call with it.
        encode([{ type: 'error', error: toGatewayError(error) }]);
        break;
      }
      for (const out of encoded) pending.push(out);
      if (event.type === 'finish' || event.type === 'error') done = true;
    }
  };
  /** `last`: the answer ends in this turn (see BodySink.flush): its last events leave with the end, in one write. */
  const flush = (last = false): boolean => {
    if (pending.length > 0) writes += 1;
    const batch = pending;
    pending = [];
    return writer.write(batch, last);
  };
  // The credentials the call sent, masked in the upstream's bytes before they are decoded (an error quoting the key).
  const masker = upstream.credentials ? createCredentialMasker(upstream.credentials) : undefined;
  const take = (chunk: Buffer): boolean => {
    for (const wireEvent of parser.push(masker ? masker.push(chunk) : chunk)) {
      if (done) break;
      encode(decode(wireEvent));
      // A first event that ends the answer waits for the end too (see flush).
      if (writes === 0) flush(done);
    }
    return done;
  };
  /** An event nested deeper than the encoders can write back (JSON.stringify overflows) ends the answer with an error. */
  const decode = (wireEvent: WireEvent): UnifiedStreamEvent[] =>
    isParsableJsonTooDeep(wireEvent.data, MAX_UPSTREAM_JSON_DEPTH) ? [{ type: 'error', error: tooDeepAnswer('a stream event with ') }] : decoder.push(wireEvent);

  /** Each stage's `end`, once per stream (StreamStage's contract), also after an answer that finished normally. */
  let stagesEnded = false;
  const endStages = (): void => {
    if (stagesEnded) return;
    stagesEnded = true;
    for (const stage of stages) {
      if (!stage.end) continue;
      let ending: UnifiedStreamEvent[];
      try {
        ending = stage.end();
      } catch (error) {
        ending = [stageFailure(error)];
      }
      encode(ending);
    }
  };

  const finishUp = (): void => {
    encode(decoder.end());
    endStages();
    if (!done) encode([{ type: 'error', error: new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream stream ended before the response was complete') }]);
    flush(true);
  };

  // A sign of life for the client (see StreamEncoder.keepAlive) once KEEP_ALIVE_MS went by without a write.
  let writesSeen = 0;
  const keepAlive = encoder.keepAlive
    ? setInterval(() => {
        if (done || writes !== writesSeen) {
          writesSeen = writes;
          return;
        }
        pending.push(...encoder.keepAlive!());
        flush();
        writesSeen = writes;
      }, KEEP_ALIVE_MS).unref()
    : undefined;
  try {
    await consumeBody(upstream.body, writer.res, { take, flush });
    if (!done && !clientGone.aborted) {
      const heldBack = masker?.end();
      if (heldBack?.length) take(heldBack);
      // A last line cut short as the upstream closed (or a truncated compressed body ended) is dropped: after a whole
      // answer, the answer is finished, as it is when the body breaks or stalls there; before, the client is told the
      // stream ended early (finishUp), not that an event it never had whole was not JSON.
      for (const wireEvent of parser.end()) if (isWholeEventData(wireEvent.data)) encode(decode(wireEvent));
      finishUp();
    }
  } catch (error) {
    if (!clientGone.aborted && !done) {
      // A whole answer whose body then stalled or broke (an upstream holding it open) is finished, not failed.
      if (decoder.whole?.()) finishUp();
      else {
        encode([{ type: 'error', error: toGatewayError(error) }]);
        flush(true);
      }
    }
  } finally {
    clearInterval(keepAlive);
    // After a finish or error event, what `end` returns is not written (the answer is complete): it still runs.
    try {
      if (!clientGone.aborted) endStages();
    } catch {
      // Nothing was sent and the answer's own failure is on its way to the client: it stands.
    }
    closeUpstreamBody(upstream.body, done && !clientGone.aborted);
    writer.end();
  }
}
