import type { ServerResponse } from 'node:http';
import { CODECS } from '../codecs';
import { toGatewayError } from '../errors/gateway-error';
import type { GatewayHooks } from '../hooks/gateway-hooks';
import type { GatewaySettings, RequestContext, StreamStage, UpstreamRequest, UpstreamResponse } from '../hooks/plugin-api';
import { toRequestEcho } from '../unified/to-request-echo';
import type { RequestEcho, UnifiedRequest, WireFormat } from '../unified/unified-request';
import { readUpstreamJson } from '../upstream/read-upstream-json';
import { sseNewlineOf } from '../sse/format-sse-event';
import type { StreamFraming } from '../sse/wire-event';
import { callPlatform } from './call-platform';
import { RESPONSE_BODY_LIMIT, streamAnswerFraming } from './stream-answer-framing';
import { createClientStreamWriter } from './client-stream-writer';
import { pumpTranslatedStream } from './pump-translated-stream';
import { defaultUpstreamPath } from './default-upstream-path';
import { assertStatelessRequest } from '../codecs/shared/assert-stateless-request';
import { hasUrlFiles, inlineUrlFiles } from './inline-url-files';
import type { SecretMasker } from '../errors/mask-gateway-error';

export interface TranslationInput {
  clientFormat: WireFormat;
  upstreamFormat: WireFormat;
  unified: UnifiedRequest;
  framing: StreamFraming;
  /** For error events inside a stream, which reach the client without passing the error middleware. */
  maskSecrets: SecretMasker;
  /** Limits of media the gateway fetches itself (documents by URL for a chat upstream). */
  media: GatewaySettings['media'];
}

/** Client format → unified → the platform's format, and the answer back the same way, streaming or not. */
export function runTranslation(hooks: GatewayHooks, input: TranslationInput, ctx: RequestContext, res: ServerResponse): Promise<void> {
  const { unified, upstreamFormat } = input;
  // Upstream-held state (previous_response_id, a message thread) exists only on an upstream of the client's format.
  assertStatelessRequest(unified, upstreamFormat);
  // Chat completions takes files as base64 only: documents given by URL are fetched first.
  if (upstreamFormat === 'chat-completions' && hasUrlFiles(unified)) {
    return inlineUrlFiles(unified, input.media, ctx.signal).then((inlined) => runTranslation(hooks, { ...input, unified: inlined }, ctx, res));
  }
  if (unified.warnings?.length) ctx.log.debug('client request fields dropped', { warnings: unified.warnings });
  const request: UpstreamRequest = {
    mode: 'translate',
    format: upstreamFormat,
    method: 'POST',
    path: defaultUpstreamPath(upstreamFormat, unified),
    headers: {},
    // Every key present: a tap's `{ ...request, json }` then only overrides, which V8 copies fast (see toWireRequest).
    body: undefined,
    json: undefined,
    unified,
    stream: unified.stream,
  };
  // Not an async function: its frame would hold the conversation until the answer has been written. From here on
  // only the request's settings are kept, which is all the response encoders read.
  const shape = { clientFormat: input.clientFormat, upstreamFormat, framing: input.framing, echo: toRequestEcho(unified), maskSecrets: input.maskSecrets };
  return translateAnswer(hooks, callPlatform(hooks, request, ctx), shape, ctx, res);
}

interface AnswerShape {
  clientFormat: WireFormat;
  upstreamFormat: WireFormat;
  framing: StreamFraming;
  echo: RequestEcho;
  maskSecrets: SecretMasker;
}

/** The upstream's answer decoded, run through the platform's stream stages and encoded in the client's format. */
async function translateAnswer(hooks: GatewayHooks, answer: Promise<UpstreamResponse>, shape: AnswerShape, ctx: RequestContext, res: ServerResponse): Promise<void> {
  const upstream = await answer;
  const upstreamCodec = CODECS[shape.upstreamFormat];
  const clientCodec = CODECS[shape.clientFormat];
  const stages = stagesOf(hooks.streamTransform.get(ctx.platform)?.call([], ctx));

  if (!shape.echo.stream) {
    let response = upstreamCodec.decodeResponse(await readUpstreamJson(upstream, RESPONSE_BODY_LIMIT));
    for (const stage of stages) if (stage.response) response = await stage.response(response);
    const body = JSON.stringify(clientCodec.encodeResponse(response, shape.echo));
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
    return;
  }

  const framing = await streamAnswerFraming(upstream, shape.upstreamFormat);
  const writer = createClientStreamWriter(res, shape.framing, sseNewlineOf(shape.clientFormat));
  // An SSE answer's headers leave with its first event, or alone after HEADERS_WAIT_MS (see ClientStreamWriter.start).
  // A JSON array is what no stream the gateway asks for should be (it asks Gemini for `alt=sse`): its client's headers
  // wait for a first event, so that a body that is no array is a 502, not a 200.
  if (framing === 'sse') writer.start();
  await pumpTranslatedStream({
    upstream,
    framing,
    decoder: upstreamCodec.createStreamDecoder(),
    stages,
    encoder: clientCodec.createStreamEncoder(shape.echo),
    writer,
    ctx,
    maskSecrets: shape.maskSecrets,
  });
}

/** The platform's stream stages; anything but an array of them is a plugin's fault, answered before a byte is sent. */
function stagesOf(value: unknown): StreamStage[] {
  if (value === undefined) return [];
  if (Array.isArray(value) && value.every((stage) => typeof stage === 'object' && stage !== null)) return value as StreamStage[];
  throw toGatewayError(new TypeError('streamTransform did not return an array of stages'));
}

