import { EventEmitter } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import { mock } from 'node:test';
import { expect } from 'chai';
import { CODECS } from '../../../core/codecs';
import { GatewayError } from '../../../core/errors/gateway-error';
import { createSecretMasker } from '../../../core/errors/mask-gateway-error';
import type { RequestContext, StreamStage, UpstreamResponse } from '../../../core/hooks/plugin-api';
import type { ClientStreamWriter } from '../../../core/pipeline/client-stream-writer';
import { KEEP_ALIVE_MS, pumpTranslatedStream } from '../../../core/pipeline/pump-translated-stream';
import type { WireEvent } from '../../../core/sse/wire-event';
import type { UnifiedStreamEvent } from '../../../core/unified/unified-stream-event';
import { fixtureBytes, replayChunks } from '../../helpers/fixtures';

/** A writer that records each `write` call (one call is one socket write in the real writer). */
function recordingWriter(): ClientStreamWriter & { writes: WireEvent[][] } {
  const writes: WireEvent[][] = [];
  return {
    writes,
    res: new EventEmitter(),
    start() {},
    started: () => true,
    write(events) {
      if (events.length > 0) writes.push(events);
      return true;
    },
    end() {},
  };
}

function upstreamOf(body: Readable): UpstreamResponse {
  return { status: 200, headers: { 'content-type': 'text/event-stream' }, body };
}

/** A credential of the platform's that its upstream quotes back in an error event. */
const CREDENTIAL = 'xai-PUMPspecSECRETkey0001';

const CONTEXT = { signal: new AbortController().signal, log: { warn() {}, debug() {} } } as unknown as RequestContext;

/** Chat completions upstream stream → Messages client stream, as the gateway's translated path runs it. */
async function translate(body: Readable, stages: StreamStage[] = [], started = true, recording = recordingWriter()): Promise<WireEvent[][]> {
  const unified = CODECS.messages.decodeRequest({ model: 'm', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'hi' }] }, { stream: true });
  // As the real writer: started at once, or (a JSON-array upstream) with the first write.
  const writer = { ...recording, started: () => started || recording.writes.length > 0 };
  await pumpTranslatedStream({
    upstream: upstreamOf(body),
    framing: 'sse',
    decoder: CODECS['chat-completions'].createStreamDecoder(),
    stages,
    encoder: CODECS.messages.createStreamEncoder(unified),
    writer,
    ctx: CONTEXT,
    maskSecrets: createSecretMasker([CREDENTIAL]),
  });
  return writer.writes;
}

describe('pumpTranslatedStream', () => {
  const upstreamBytes = fixtureBytes('openai-chat/stream-basic.sse');

  it('throws a failure that comes before the client has its status, and tells a later one as an error event', async () => {
    const error = await translate(Readable.from([]), [], false).then(() => undefined, (e: unknown) => e);
    expect((error as Error).message).to.equal('upstream stream ended before the response was complete');
    const writes = await translate(Readable.from([upstreamBytes.subarray(0, upstreamBytes.indexOf('\n\n') + 2)]), [], false);
    expect(writes.flat().at(-1)?.event).to.equal('error');
  });

  it("ends with the format's error event when the encoder refuses an event, though the upstream's answer was whole", async () => {
    // A call's last delta and its finish in one upstream event: the encoder's bound trips on the delta.
    const body = [
      'data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":""}}]},"finish_reason":null}]}',
      'data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\\"a\\":\\"BOUND\\"}"}}]},"finish_reason":"tool_calls"}]}',
      'data: [DONE]',
      '',
    ].join('\n\n');
    const unified = CODECS.messages.decodeRequest({ model: 'm', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'hi' }] }, { stream: true });
    const real = CODECS.messages.createStreamEncoder(unified);
    const encoder = {
      ...real,
      push(event: UnifiedStreamEvent): WireEvent[] {
        if (event.type === 'tool_call_delta' && event.argumentsDelta.includes('BOUND')) throw new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream tool call arguments exceeds 32 MB');
        return real.push(event);
      },
    };
    const writer = recordingWriter();
    const ctx = { ...CONTEXT } as RequestContext;
    await pumpTranslatedStream({ upstream: upstreamOf(Readable.from([Buffer.from(body)])), framing: 'sse', decoder: CODECS['chat-completions'].createStreamDecoder(), stages: [], encoder, writer, ctx, maskSecrets: createSecretMasker([]) });
    const events = writer.writes.flat();
    expect(events.map((event) => event.event)).to.not.include('message_stop');
    expect(events.at(-1)).to.deep.include({ event: 'error' });
    expect(JSON.parse(events.at(-1)!.data)).to.deep.equal({ type: 'error', error: { type: 'api_error', message: 'upstream tool call arguments exceeds 32 MB' } });
    expect(ctx.failedMidway).to.equal('gw_upstream_bad_response');
  });

  describe('while the upstream is silent', () => {
    beforeEach(() => mock.timers.enable({ apis: ['setInterval'] }));
    afterEach(() => mock.timers.reset());
    const names = (writes: WireEvent[][]): string[][] => writes.map((events) => events.map((event) => event.event ?? ''));
    const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

    it('sends a Messages client a ping each keep-alive period without a write, message_start first when nothing went yet', async () => {
      const body = new PassThrough();
      const recording = recordingWriter();
      const pumped = translate(body, [], true, recording);
      await settle();
      mock.timers.tick(KEEP_ALIVE_MS);
      await settle();
      expect(names(recording.writes)).to.deep.equal([['message_start', 'ping']]);
      // A message id of its own, as every Anthropic message has.
      const id = (JSON.parse(recording.writes[0][0].data) as { message: { id: string } }).message.id;
      expect(id).to.match(/^msg_[0-9a-f]{24}$/);
      mock.timers.tick(KEEP_ALIVE_MS);
      expect(names(recording.writes)).to.deep.equal([['message_start', 'ping'], ['ping']]);
      // The answer then comes (its first text opens a block, with the API's own ping): no keep-alive while events flow.
      const events = upstreamBytes.toString('utf8').split('\n\n');
      body.write(`${events.slice(0, 3).join('\n\n')}\n\n`);
      await settle();
      const pings = (): number => names(recording.writes).flat().filter((name) => name === 'ping').length;
      expect(pings()).to.equal(3);
      mock.timers.tick(KEEP_ALIVE_MS);
      expect(pings()).to.equal(3);
      body.end(events.slice(3).join('\n\n'));
      const writes = names(await pumped).flat();
      expect(writes.filter((name) => name === 'message_start')).to.have.length(1);
      expect(writes.at(-1)).to.equal('message_stop');
      // Stopped with the stream.
      mock.timers.tick(KEEP_ALIVE_MS * 3);
      expect(pings()).to.equal(3);
    });
  });

  it('writes the first client event on its own, then the rest of that upstream read together', async () => {
    // The whole upstream answer in one read, as a fast upstream (or a burst after a stall) delivers it.
    const writes = await translate(Readable.from([upstreamBytes]));
    const names = writes.map((events) => events.map((event) => event.event));
    expect(names[0]).to.deep.equal(['message_start']);
    // Every text delta of that read in the second write; what only the upstream's end decides comes last.
    const deltas = names.flat().filter((name) => name === 'content_block_delta').length;
    expect(deltas).to.be.above(1);
    expect(names[1].filter((name) => name === 'content_block_delta')).to.have.length(deltas);
    expect(names.at(-1)?.at(-1)).to.equal('message_stop');
    expect(writes.length).to.be.at.most(3);
  });

  it('writes the same events whatever the upstream reads were', async () => {
    const whole = (await translate(Readable.from([upstreamBytes]))).flat();
    const trickled = (await translate(replayChunks(upstreamBytes))).flat();
    expect(whole.map((event) => event.event)).to.deep.equal(trickled.map((event) => event.event));
    expect(whole.map((event) => JSON.parse(event.data).type)).to.deep.equal(trickled.map((event) => JSON.parse(event.data).type));
    expect(whole.at(-1)?.event).to.equal('message_stop');
  });

  it('ends a stage only after it has seen every event, those the upstream end yields included', async () => {
    // Cut off before its finish; the last event lacks its blank line, so only the parser's end yields it.
    const cut = upstreamBytes.toString('utf8').split('\n\n').slice(0, 3).join('\n\n');
    const textsOf = (events: UnifiedStreamEvent[]) => events.flatMap((event) => (event.type === 'text_delta' ? [event.text] : []));
    const seen: UnifiedStreamEvent[] = [];
    let seenAtEnd: string[] | undefined;
    const stage: StreamStage = {
      name: 'recording',
      event: (event) => (seen.push(event), [event]),
      end: () => ((seenAtEnd = textsOf(seen)), []),
    };
    const writes = await translate(Readable.from([Buffer.from(cut)]), [stage]);
    expect(seenAtEnd).to.deep.equal(['Hello', ',']);
    // The cut shows as the client format's error event, after the text that did arrive.
    const events = writes.flat();
    expect(events.at(-1)?.event).to.equal('error');
    const texts = events.flatMap((event) => {
      const data = JSON.parse(event.data) as { delta?: { text?: string } };
      return data.delta?.text === undefined ? [] : [data.delta.text];
    });
    expect(texts).to.deep.equal(['Hello', ',']);
  });

  it('tells a stream cut inside an event before its finish as one that ended early, not as an event that is not JSON', async () => {
    const text = upstreamBytes.toString('utf8');
    const cut = text.slice(0, text.indexOf('\n\n', text.indexOf('\n\n') + 2) + 2) + 'data: {"id":"chatcmpl-x","choi';
    const events = (await translate(Readable.from([Buffer.from(cut)]))).flat();
    expect(events.at(-1)?.event).to.equal('error');
    expect(JSON.parse(events.at(-1)!.data).error.message).to.equal('upstream stream ended before the response was complete');
  });

  it('ends finished on a last `[DONE]` with blanks around it and no newline, from a service that sends no finish_reason', async () => {
    const events = upstreamBytes
      .toString('utf8')
      .split('\n\n')
      .filter((event) => event.startsWith('data: {') && !event.includes('"finish_reason":"stop"'));
    for (const done of ['data: [DONE] ', 'data:  [DONE]']) {
      const written = (await translate(Readable.from([Buffer.from(`${events.join('\n\n')}\n\n${done}`)]))).flat();
      expect(written.at(-1)?.event, done).to.equal('message_stop');
    }
  });

  it('masks the gateway\'s secrets in an upstream error event before the client sees it', async () => {
    const opened = upstreamBytes.toString('utf8').split('\n\n').slice(0, 2).join('\n\n');
    const failure = `data: ${JSON.stringify({ error: { message: `stream failed for credential ${CREDENTIAL}`, type: 'server_error' } })}\n\n`;
    const events = (await translate(Readable.from([Buffer.from(`${opened}\n\n${failure}`)]))).flat();
    const error = events.at(-1)!;
    expect(error.event).to.equal('error');
    expect(error.data).to.include('stream failed for credential xai-...0001');
    expect(events.map((event) => event.data).join('\n')).not.to.include(CREDENTIAL);
  });
});
