import type { CustomHandler, RequestContext } from '../hooks/plugin-api';
import type { Store } from '../store/store';
import { parseSearchRequest, type SearchRequest } from './parse-search-request';
import { buildSearchResponse, buildSearchResults, type SearchAnswer } from './search-response';
import { ownerOf } from '../tasks/task-owner';
import { createSearchSessions } from './search-sessions';

export interface SearchHandlerDeps {
  store: Store;
  platform: string;
  /** Command kinds the platform can serve (`search_query`, `open`, `find`); others are a 400 naming them. */
  serves: readonly string[];
  /** One upstream call answering every command of the search; `open`/`find` refs are URLs by then. */
  answer(search: SearchRequest, ctx: RequestContext): Promise<SearchAnswer>;
}

/**
 * `POST /v1/alpha/search` on a platform with a search tool: validate, resolve the session's ref ids, ask the
 * platform, number the sources as this turn's results and remember them for later `open`s.
 * A call whose only queries are blank is answered empty without an upstream call: Codex's own tool text tells its
 * model to send `{"search_query":[{"q":""}]}` to close a call it made by accident.
 */
export function createSearchHandler(deps: SearchHandlerDeps): CustomHandler {
  const sessions = createSearchSessions(deps.store, deps.platform);
  return async (request, ctx) => {
    const search = parseSearchRequest(request.body, { name: ctx.platform, serves: deps.serves });
    if (search.queries.length === 0 && search.opens.length === 0 && search.finds.length === 0) {
      return { status: 200, json: buildSearchResponse('', []) };
    }
    const turn = await sessions.begin(search, ownerOf(ctx), ctx.log);
    const { text, sources } = await deps.answer({ ...search, ...turn.commands }, ctx);
    const results = buildSearchResults(sources, turn.turn);
    await turn.remember(results);
    return { status: 200, json: buildSearchResponse(text, results) };
  };
}
