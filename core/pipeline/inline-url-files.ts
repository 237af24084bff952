import type { GatewaySettings } from '../hooks/plugin-api';
import { fetchWithinBudget, mapConcurrently, mediaBudget, refuseTooManyFetches } from '../media/fetch-within-budget';
import { mediaPartsOf, withMediaReplaced } from '../unified/media-parts';
import type { UnifiedMediaPart, UnifiedPart, UnifiedRequest } from '../unified/unified-request';

function isUrlFile(part: UnifiedPart): part is UnifiedMediaPart {
  return part.type === 'file' && part.source.kind === 'url';
}

/** Whether a request holds a document given by URL, also inside a tool result. Asked of every translation to chat: no copies. */
export function hasUrlFiles(request: UnifiedRequest): boolean {
  return request.messages.some((message) =>
    message.content.some((part) => isUrlFile(part) || (part.type === 'tool_result' && part.content.some(isUrlFile))),
  );
}

/**
 * Documents given by URL (an Anthropic `document` with a url source, a Responses `input_file` with `file_url`),
 * fetched by the gateway and inlined as base64: chat completions takes a file as `file_data` only, never a URL. The
 * fetch is core's (size limit, timeout, SSRF guard), a few at once and together within `media.maxBytes`, as Gemini's
 * media are; a failure is the client's 4xx naming its field.
 */
export async function inlineUrlFiles(request: UnifiedRequest, media: GatewaySettings['media'], signal: AbortSignal): Promise<UnifiedRequest> {
  const found = mediaPartsOf(request.messages).filter(isUrlFile);
  refuseTooManyFetches(found.map((part) => part.clientPath ?? 'file'));
  const budget = mediaBudget(media);
  const fetched = await mapConcurrently(found, signal, (part, _index, fetchSignal) =>
    fetchWithinBudget((part.source as { url: string }).url, part.clientPath ?? 'file', media, budget, fetchSignal),
  );
  return withMediaReplaced(
    request,
    new Map(found.map((part, i) => [part, { ...part, source: { kind: 'base64', mediaType: fetched[i].mediaType, data: fetched[i].data.toString('base64') } }])),
  );
}
