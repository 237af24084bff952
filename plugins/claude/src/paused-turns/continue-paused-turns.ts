import { PassThrough, Readable } from 'node:stream';
import {
  GatewayError,
  OUTPUT_CAP_STATE,
  SAME_CREDENTIAL_STATE,
  closeUpstreamBody,
  createCredentialMasker,
  lowerMessagesLimit,
  outputCapIn,
  createSseParser,
  isEventStream,
  isGatewayError,
  readUpstreamJson,
  type CredentialMasker,
  type RequestContext,
  type UpstreamRequest,
  type UpstreamResponse,
  type WireEvent,
} from '@gateway/core';
import { continuationOf, continuePausedAnswer } from './continue-paused-answer';
import { createPausedStreamRelay } from './create-paused-stream-relay';

type Caller = (request: UpstreamRequest, ctx: RequestContext) => Promise<UpstreamResponse>;
type Json = Record<string, unknown>;

/** As for any translated answer read whole (run-translation's bound): inline images make answers of a few MB. */
const ANSWER_LIMIT = 64 * 1024 * 1024;
/** The server tools whose work Anthropic may pause (a web search, a fetch, code run in its sandbox). */
const SERVER_TOOL_TYPE = /^(?:web_search|web_fetch|code_execution)_/;
/**
 * A request's state key: the Messages body its translation wrote, when that offers a server tool (set by the request
 * transform, see offersServerTool): only such a turn can pause, and its continuation is built from it.
 */
export const PAUSABLE_STATE = 'claude.pausableTurn';

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a Messages `tools` list offers a server tool: only then can a turn pause. */
export function offersServerTool(tools: unknown): boolean {
  return Array.isArray(tools) && tools.some((tool) => isRecord(tool) && typeof tool.type === 'string' && SERVER_TOOL_TYPE.test(tool.type));
}

/** A translated request's Messages body when its translation offers a server tool (see PAUSABLE_STATE), else undefined. */
function pausableRequest(request: UpstreamRequest, ctx: RequestContext): Json | undefined {
  const json = ctx.state.get(PAUSABLE_STATE);
  // Taken once: a later upstream call of the request (another endpoint's own) is no translation of it.
  ctx.state.delete(PAUSABLE_STATE);
  return request.mode === 'translate' && isRecord(json) ? json : undefined;
}

/**
 * The platform's upstreamCall for clients that cannot continue a paused turn themselves: a translated request whose
 * answer Anthropic paused (`stop_reason: "pause_turn"`, a server tool at its iteration limit) is sent again with
 * the turn so far, as Anthropic's docs tell a client to, and the client gets one answer made of every call's (a
 * stream: one stream). Without this, a chat or Responses client got the paused turn as a finished answer, often with
 * no text at all. Messages clients (passthrough) get the pause as it is: their format can send it back.
 */
export function continuePausedTurns(call: Caller): Caller {
  return async (request, ctx) => {
    const json = pausableRequest(request, ctx);
    // Refused: core may send the translation again (without a field, at a lower output limit), and that one may pause.
    const keepPausable = (): void => {
      if (json !== undefined) ctx.state.set(PAUSABLE_STATE, json);
    };
    let first: UpstreamResponse;
    try {
      first = await call(request, ctx);
    } catch (error) {
      keepPausable();
      throw error;
    }
    if (json === undefined) return first;
    if (first.status < 200 || first.status >= 300) {
      keepPausable();
      return first;
    }
    // The output limit core lowered the call to, when the upstream refused the one asked: continuations keep to it.
    const cap = ctx.state.get(OUTPUT_CAP_STATE);
    if (typeof cap === 'number') lowerMessagesLimit(json, cap);
    const again = async (next: Json): Promise<UpstreamResponse> => {
      // The same credential, while it can serve: the turn's tool results came to it.
      ctx.state.set(SAME_CREDENTIAL_STATE, ctx.state.get('credential'));
      try {
        try {
          return await call({ ...request, body: undefined, json: next }, ctx);
        } catch (error) {
          // A continuation carries more input (the server tool's results): the room the context window leaves it may be
          // less than the first call's, and the refusal states it. Asked again within it, once.
          const stated = isGatewayError(error) && error.status === 400 ? outputCapIn(error.message) : undefined;
          if (stated === undefined || !lowerMessagesLimit(next, stated.cap)) throw error;
          return await call({ ...request, body: undefined, json: next }, ctx);
        }
      } catch (error) {
        throw refusedContinuation(error);
      } finally {
        ctx.state.delete(SAME_CREDENTIAL_STATE);
      }
    };
    return request.stream ? spliceContinuations(first, json, again) : continueWhole(first, json, again);
  };
}

/**
 * A continuation the upstream refused (a 4xx other than a rate limit) was the gateway's request, not the client's: a
 * 502 that says so (which SDKs retry), not a 400 the client would take for its own fault, nor a refusal that core's
 * optional-field retry would read as one of the first request's fields.
 */
function refusedContinuation(error: unknown): unknown {
  if (!isGatewayError(error) || error.status < 400 || error.status >= 500 || error.status === 429) return error;
  return new GatewayError('GW_UPSTREAM_BAD_RESPONSE', `upstream refused to continue a paused turn: ${error.message}`, { cause: error });
}

async function continueWhole(first: UpstreamResponse, request: Json, again: (json: Json) => Promise<UpstreamResponse>): Promise<UpstreamResponse> {
  const read = (response: UpstreamResponse): Promise<unknown> => readUpstreamJson(response, ANSWER_LIMIT);
  const answer = await continuePausedAnswer(request, await read(first), async (next) => read(await again(next)));
  const bytes = Buffer.from(JSON.stringify(answer));
  return {
    status: first.status,
    headers: { ...first.headers, 'content-type': 'application/json', 'content-length': String(bytes.length), 'content-encoding': undefined },
    body: Readable.from([bytes], { objectMode: false }),
    credentials: first.credentials,
  };
}

/** Resolves once `out` can take more, or is gone. */
function drained(out: PassThrough): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
  });
}

/**
 * The first call's stream, continued while a call pauses the turn: each continuation is called when the previous
 * stream has ended, and its events go on in the same body (see createPausedStreamRelay). Events leave as they arrive.
 * The consumer leaving (the answer done, the client gone) destroys the stream being read.
 */
function spliceContinuations(first: UpstreamResponse, request: Json, again: (json: Json) => Promise<UpstreamResponse>): UpstreamResponse {
  if (!isEventStream(first.headers['content-type'])) return first;
  const out = new PassThrough();
  const relay = createPausedStreamRelay();
  let current = first.body;
  let gone = false;
  out.once('close', () => {
    gone = true;
    current.destroy();
  });
  const relayed = (events: WireEvent[]): string => events.map((event) => relay.push(event)).join('');

  const run = async (): Promise<void> => {
    // The first call's bytes are masked downstream with its credentials; a continuation's, here with its own.
    let masker: CredentialMasker | undefined;
    for (;;) {
      const parser = createSseParser();
      try {
        // Not destroyed when left: a paused call's body is left to run out once its message_stop came (below).
        for await (const chunk of current.iterator({ destroyOnReturn: false })) {
          const text = relayed(parser.push(masker ? masker.push(chunk as Buffer) : (chunk as Buffer)));
          if (gone) return;
          if (text !== '' && !out.write(text)) await drained(out);
          if (relay.complete()) break;
        }
        if (!relay.complete()) {
          const rest = relayed([...(masker ? parser.push(masker.end()) : []), ...parser.end()]);
          if (rest !== '' && !out.write(rest)) await drained(out);
        }
      } catch (error) {
        // A body that broke once its call had paused the turn has given all the turn needs, as a whole answer has.
        if (!relay.paused() || gone) throw error;
      }
      if (!relay.paused() || gone) return;
      // Its keep-alive connection goes back to the pool when the body ends by itself, as a complete answer's does.
      closeUpstreamBody(current, true);
      const next = await again(continuationOf(request, relay.nextRound(), relay.container()));
      if (gone) return void next.body.destroy();
      current = next.body;
      if (!isEventStream(next.headers['content-type'])) throw new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream continued a paused turn with a body that is not an event stream');
      masker = next.credentials ? createCredentialMasker(next.credentials) : undefined;
    }
  };
  run().then(
    () => out.end(),
    (error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))),
  );
  return { ...first, body: out };
}
