import { GatewayError } from '../errors/gateway-error';
import type { Store } from '../store/store';
import type { SearchRequest } from './parse-search-request';
import type { SearchResult } from './search-response';

/** What the gateway remembers of a search session (the request's `id`): its call count and the URLs of its refs. */
interface SessionRecord {
  turns: number;
  refs: Record<string, string>;
}

/** Refs kept per session; the oldest are forgotten first. */
const MAX_REFS = 500;
const DEFAULT_TTL_MS = 24 * 3600_000;

export interface SearchTurn {
  /** 0 for the first call of a session (or a call without an id), then 1, 2, … */
  turn: number;
  /** The call's `open`/`find` commands with every ref id replaced by its URL; an unknown ref is a 400 naming it. */
  commands: Pick<SearchRequest, 'opens' | 'finds'>;
  /** Records this call's results so that later calls can `open` them by ref id. */
  remember(results: readonly SearchResult[]): Promise<void>;
}

export interface SearchSessions {
  begin(request: Pick<SearchRequest, 'id' | 'opens' | 'finds'>): Promise<SearchTurn>;
}

/**
 * Search sessions in the store (namespace per platform), so ref ids stay unique across the calls of one Codex
 * session and `open: [{ref_id: "turn0search2"}]` finds its URL. Two concurrent calls of one session may share a turn.
 */
export function createSearchSessions(store: Store, platform: string, ttlMs = DEFAULT_TTL_MS): SearchSessions {
  const namespace = `search-sessions:${platform}`;
  return {
    async begin(request) {
      const record = request.id ? await store.get<SessionRecord>(namespace, request.id) : undefined;
      const turn = record?.turns ?? 0;
      const resolve = (ref: string, field: string): string => {
        if (/^https?:\/\//i.test(ref)) return ref;
        // Own keys only: a ref named `constructor` is not a reference to Object's.
        const url = record && Object.hasOwn(record.refs, ref) ? record.refs[ref] : undefined;
        if (url) return url;
        throw new GatewayError('GW_INVALID_REQUEST', `${field}: unknown reference "${ref}"${request.id ? ` in search session "${request.id}"` : ''}; pass a URL or a ref_id of an earlier result`, { param: field });
      };
      const commands = {
        opens: request.opens.map((open, i) => ({ ...open, ref_id: resolve(open.ref_id, `commands.open[${i}].ref_id`) })),
        finds: request.finds.map((find, i) => ({ ...find, ref_id: resolve(find.ref_id, `commands.find[${i}].ref_id`) })),
      };
      return {
        turn,
        commands,
        async remember(results) {
          if (!request.id) return;
          const refs: Record<string, string> = {};
          for (const result of results) refs[result.ref_id] = result.url;
          const keep = Math.max(0, MAX_REFS - results.length);
          const older = keep === 0 ? [] : Object.entries(record?.refs ?? {}).slice(-keep);
          await store.set<SessionRecord>(namespace, request.id, { turns: turn + 1, refs: { ...Object.fromEntries(older), ...refs } }, { ttlMs });
        },
      };
    },
  };
}
