import type { ServerResponse } from 'node:http';
import { CODECS } from '../codecs';
import { GatewayError } from '../errors/gateway-error';
import type { GatewayHooks } from '../hooks/gateway-hooks';
import type { RequestContext, StreamStage, UpstreamRequest } from '../hooks/plugin-api';
import type { UnifiedRequest, WireFormat } from '../unified/unified-request';
import { readUpstreamBody } from '../upstream/upstream-client';
import { sendToPlatform, shapeRequest } from './call-platform';
import { createClientStreamWriter, type ClientFraming } from './client-stream-writer';
import { pumpTranslatedStream } from './pump-translated-stream';
import { defaultUpstreamPath } from './default-upstream-path';
import { assertStatelessRequest } from '../codecs/shared/assert-stateless-request';

/** Generous bound for a non-streaming upstream answer (generated images arrive inline). */
const RESPONSE_BODY_LIMIT = 256 * 1024 * 1024;

export interface TranslationInput {
  clientFormat: WireFormat;
  upstreamFormat: WireFormat;
  unified: UnifiedRequest;
  framing: ClientFraming;
}

/** Client format → unified → the platform's format, and the answer back the same way, streaming or not. */
export async function runTranslation(hooks: GatewayHooks, input: TranslationInput, ctx: RequestContext, res: ServerResponse): Promise<void> {
  const { unified, clientFormat, upstreamFormat } = input;
  // Upstream-held state (previous_response_id) exists only on a Responses upstream; elsewhere it would be silently lost.
  if (upstreamFormat !== 'responses') assertStatelessRequest(unified);
  if (unified.warnings?.length) ctx.log.debug('client request fields dropped', { warnings: unified.warnings });
  const upstreamCodec = CODECS[upstreamFormat];
  const clientCodec = CODECS[clientFormat];
  const request: UpstreamRequest = {
    mode: 'translate',
    format: upstreamFormat,
    method: 'POST',
    path: defaultUpstreamPath(upstreamFormat, unified),
    headers: {},
    unified,
    stream: unified.stream,
  };
  const finalRequest = await shapeRequest(hooks, request, ctx);
  if (finalRequest.body === undefined && finalRequest.json === undefined) {
    const { value, warnings } = upstreamCodec.encodeRequest(finalRequest.unified ?? unified);
    if (warnings.length > 0) ctx.log.debug('translation dropped fields', { warnings });
    finalRequest.json = value;
  }
  const upstream = await sendToPlatform(hooks, finalRequest, ctx);
  const stages: StreamStage[] = hooks.streamTransform.get(ctx.platform)?.call([], ctx) ?? [];

  if (!unified.stream) {
    const text = (await readUpstreamBody(upstream, RESPONSE_BODY_LIMIT)).toString('utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream answered a body that is not JSON', { cause: error });
    }
    let response = upstreamCodec.decodeResponse(parsed);
    for (const stage of stages) if (stage.response) response = await stage.response(response);
    const body = JSON.stringify(clientCodec.encodeResponse(response, unified));
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
    return;
  }

  const writer = createClientStreamWriter(res, input.framing);
  writer.start();
  await pumpTranslatedStream({
    upstream,
    decoder: upstreamCodec.createStreamDecoder(),
    stages,
    encoder: clientCodec.createStreamEncoder(unified),
    writer,
    ctx,
  });
}
