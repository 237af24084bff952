import type { RequestEcho } from '../../unified/unified-request';

/**
 * Whether the upstream may search the web for this request (the client asked for the hosted tool): only then can the
 * answer cite sources, and only then do the stream encoders keep track of where its text went.
 */
export function searchesWeb(request: Pick<RequestEcho, 'builtinTools'>): boolean {
  return request.builtinTools?.some((tool) => tool.type === 'web_search') === true;
}
