import { GatewayError } from '../errors/gateway-error';
import type { Logger } from '../logging';
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
  /** `owner`: the license calling (ownerOf); a session is its caller's own, as image and video tasks are. */
  /** `log`: where a session record that cannot be read is reported; it is read as a new session, and overwritten. */
  begin(request: Pick<SearchRequest, 'id' | 'opens' | 'finds'>, owner?: string, log?: Logger): Promise<SearchTurn>;
}

/** Sessions whose next turn is reserved in memory at most; past it the oldest reservations are forgotten. */
const MAX_RESERVED = 10_000;

/**
 * Search sessions in the store (namespace per platform), so ref ids stay unique across the calls of one Codex
 * session and `open: [{ref_id: "turn0search2"}]` finds its URL. A call's turn is reserved when it begins: Codex makes
 * the calls of one model turn in parallel, and two calls numbered alike would give two pages one ref id (an `open`
 * would then read the wrong one). Their results are written one call at a time, each over the latest record.
 */
export function createSearchSessions(store: Store, platform: string, ttlMs = DEFAULT_TTL_MS): SearchSessions {
  const namespace = `search-sessions:${platform}`;
  /** Per session: the next turn not yet taken by a call of this process (the store has it once a call is done). */
  const nextTurn = new Map<string, number>();
  /** Per session: the last write of results, which the next one waits for. */
  const writing = new Map<string, Promise<void>>();

  function reserve(id: string, stored: number): number {
    const turn = Math.max(stored, nextTurn.get(id) ?? 0);
    nextTurn.delete(id);
    nextTurn.set(id, turn + 1);
    if (nextTurn.size > MAX_RESERVED) nextTurn.delete(nextTurn.keys().next().value as string);
    return turn;
  }

  /** The session's record; one that cannot be read (a damaged file) is reported and read as none, not a 500 for a day. */
  function read(id: string, log?: Logger): Promise<SessionRecord | undefined> {
    return store.get<SessionRecord>(namespace, id, { onUnreadable: (_key, error) => log?.warn('search session record unreadable; read as a new session', { platform, error: error.message }) });
  }

  async function record(id: string, turn: number, results: readonly SearchResult[], log?: Logger): Promise<void> {
    const latest = await read(id, log);
    const refs: Record<string, string> = {};
    for (const result of results) refs[result.ref_id] = result.url;
    const keep = Math.max(0, MAX_REFS - results.length);
    const older = keep === 0 ? [] : Object.entries(latest?.refs ?? {}).slice(-keep);
    const turns = Math.max(turn + 1, latest?.turns ?? 0);
    await store.set<SessionRecord>(namespace, id, { turns, refs: { ...Object.fromEntries(older), ...refs } }, { ttlMs });
  }

  return {
    async begin(request, owner, log) {
      // Another license naming the same session id has a session of its own: it can neither read nor number this one.
      const id = request.id && owner !== undefined ? `${owner}\u0000${request.id}` : request.id;
      const stored = id ? await read(id, log) : undefined;
      const turn = id ? reserve(id, stored?.turns ?? 0) : 0;
      const resolve = (ref: string, field: string): string => {
        if (/^https?:\/\//i.test(ref)) return ref;
        // Own keys only: a ref named `constructor` is not a reference to Object's.
        const url = stored && Object.hasOwn(stored.refs, ref) ? stored.refs[ref] : undefined;
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
          if (!id) return;
          const before = writing.get(id) ?? Promise.resolve();
          const done = before.catch(() => undefined).then(() => record(id, turn, results, log));
          writing.set(id, done);
          try {
            await done;
          } finally {
            if (writing.get(id) === done) writing.delete(id);
          }
        },
      };
    },
  };
}
