import {
  GatewayError,
  fetchWithinBudget,
  isMediaPart,
  mapConcurrently,
  mediaBudget,
  mediaTypeOf,
  parseDataUri,
  refuseTooManyFetches,
  withMediaReplaced,
  type GatewaySettings,
  type MediaBudget,
  type UnifiedMediaPart,
  type UnifiedMessage,
  type UnifiedRequest,
} from '@gateway/core';
import { describeMediaField, type MediaPosition } from './describe-media-field';
import { describeRefusedMediaType, toGeminiMediaType } from './gemini-media-types';

/** Gemini reads YouTube links itself (`fileData.fileUri`); they are pages, not media files the gateway could inline. */
const YOUTUBE_URL = /^https?:\/\/(?:www\.|m\.)?(?:youtube\.com|youtu\.be)\//i;

export interface MediaContext {
  media: GatewaySettings['media'];
  /** The request's context: its abort signal, read only when there are media to fetch (core makes it on first use). */
  client: { readonly signal: AbortSignal };
}

/**
 * Every media part of a translated request, made ready for Gemini: URLs are fetched by the gateway (size limit,
 * timeout, SSRF guard: core's `fetchMedia`) and inlined as base64; every type is checked against the formats the
 * platform accepts (spec 4.1) and given its registered name (`audio/mp3` → `audio/mpeg`). A refused type is 415
 * naming the type and the field. Up to FETCH_CONCURRENCY downloads run at once and together may not exceed
 * `media.maxBytes` (Gemini's own limit on inline data per request is of that order); the first failure cancels the rest.
 */
export async function inlineGeminiMedia(request: UnifiedRequest, context: MediaContext): Promise<UnifiedRequest> {
  const found = findMedia(request.messages);
  if (found.length === 0) return request;
  refuseTooManyFetches(found.filter(({ part }) => isFetchedUrl(part)).map(({ part, at }) => describeMediaField(request, part, at)));
  const budget = mediaBudget(context.media);
  const resolved = await mapConcurrently(found, context.client.signal, ({ part, at }, _index, signal) =>
    resolveMediaPart(part, describeMediaField(request, part, at), { media: context.media, signal, budget }),
  );
  return withMediaReplaced(request, new Map(found.map(({ part }, i) => [part, resolved[i]])));
}

interface FoundMedia {
  part: UnifiedMediaPart;
  at: MediaPosition;
}

/** Media parts of the conversation, also inside tool results, with their positions. */
function findMedia(messages: readonly UnifiedMessage[]): FoundMedia[] {
  const found: FoundMedia[] = [];
  messages.forEach((message, i) => {
    message.content.forEach((part, j) => {
      if (isMediaPart(part)) found.push({ part, at: { message: i, part: j } });
      else if (part.type === 'tool_result') {
        part.content.forEach((item, k) => {
          if (isMediaPart(item)) found.push({ part: item, at: { message: i, part: k, toolResult: j } });
        });
      }
    });
  });
  return found;
}


interface FetchContext {
  media: GatewaySettings['media'];
  signal: AbortSignal;
  budget: MediaBudget;
}

/** A part given by a URL the gateway downloads (not inline data, not a YouTube link Gemini takes as it is). */
function isFetchedUrl(part: UnifiedMediaPart): boolean {
  return part.source.kind === 'url' && !part.source.url.startsWith('data:') && !YOUTUBE_URL.test(part.source.url);
}

async function resolveMediaPart(part: UnifiedMediaPart, field: string, { media, signal, budget }: FetchContext): Promise<UnifiedMediaPart> {
  const { source } = part;
  if (source.kind === 'base64') return accepted(part, source.mediaType, source.data, field);
  const inline = parseDataUri(source.url);
  if (inline) return accepted(part, inline.mediaType, inline.data, field);
  if (source.url.startsWith('data:')) {
    throw new GatewayError('GW_INVALID_REQUEST', `${field}: data URIs must be base64 (data:<type>;base64,<data>)`, { param: field });
  }
  if (YOUTUBE_URL.test(source.url)) return { ...part, type: 'video' };
  const fetched = await fetchWithinBudget(source.url, field, media, budget, signal);
  return accepted(part, fetched.mediaType, fetched.data.toString('base64'), field);
}

/** The part inlined under its registered type, or 415 when the platform does not take that type. */
function accepted(part: UnifiedMediaPart, declared: string, data: string, field: string): UnifiedMediaPart {
  const mediaType = mediaTypeOf(declared, Buffer.from(data.slice(0, 128), 'base64'));
  const canonical = toGeminiMediaType(mediaType);
  if (!canonical) throw new GatewayError('GW_MEDIA_NOT_ALLOWED', `${field}: ${describeRefusedMediaType(mediaType)}`, { param: field });
  const kind = canonical.slice(0, canonical.indexOf('/')) as 'image' | 'audio' | 'video';
  const { filename, detail } = part;
  return {
    type: kind,
    source: { kind: 'base64', mediaType: canonical, data },
    ...(filename !== undefined ? { filename } : {}),
    ...(detail !== undefined ? { detail } : {}),
  };
}
