import type { Logger } from '../logging';
import type { Store } from './store';

export interface CallMemoOptions<T> {
  /** How long an entry is kept: the next turn of a tool loop comes well within it. */
  ttlMs: number;
  /** What is kept, as the error logged when a save fails names it ("thinking signatures"). */
  what: string;
  /** An entry that does not have the expected shape (written by another build, say) counts as missing. */
  isValid(value: unknown): value is T;
}

export interface CallMemo<T> {
  /** Keeps `value` for the tool call `toolCallId`. Never throws: a failure is logged, and only the replay is lost. */
  save(toolCallId: string, value: T): Promise<void>;
  /** The kept values of those of `toolCallIds` that have one. Never throws: an unreadable store finds none. */
  load(toolCallIds: readonly string[]): Promise<Map<string, T>>;
}

/**
 * State a platform keeps per tool call for the next turn of a tool loop, for clients whose wire format cannot carry
 * it back (Anthropic's signed thinking, Gemini's thought signatures), in store namespace `namespace`: it survives a
 * restart with the store. A save or a load that fails is logged and leaves the request as it is; the next turn then
 * goes without.
 */
export function createCallMemo<T>(store: Store, namespace: string, log: Logger, options: CallMemoOptions<T>): CallMemo<T> {
  return {
    async save(toolCallId, value) {
      try {
        await store.set(namespace, toolCallId, value, { ttlMs: options.ttlMs });
      } catch (error) {
        log.error(`could not store ${options.what}`, { toolCallId, error: String(error) });
      }
    },

    async load(toolCallIds) {
      const found = new Map<string, T>();
      let values: unknown[];
      try {
        // A corrupt entry costs that entry only.
        const onUnreadable = (toolCallId: string, error: Error): void => void log.warn(`${options.what} unreadable; left out`, { toolCallId, error: error.message });
        values = await Promise.all(toolCallIds.map((id) => store.get<unknown>(namespace, id, { onUnreadable })));
      } catch (error) {
        // An unreadable store (I/O) costs the replay, not the request.
        log.error(`could not read ${options.what}`, { toolCallIds: toolCallIds.length, error: String(error) });
        return found;
      }
      values.forEach((value, i) => {
        if (options.isValid(value)) found.set(toolCallIds[i], value);
      });
      return found;
    },
  };
}
