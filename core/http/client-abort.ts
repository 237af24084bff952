import type { AbortSource } from '../upstream/upstream-client';

type AbortListener = () => void;

/**
 * The client's connection as an abort source that costs nothing until it is needed. Node builds every AbortSignal
 * with `setPrototypeOf`, which made one per request cost ~35 µs of CPU in the gateway (A/B, c16 passthrough), so the
 * real `signal` is made on first use; core's own upstream calls listen here instead, through the same
 * `aborted` / `reason` / `addEventListener` surface.
 */
export class ClientAbort implements AbortSource {
  aborted = false;
  reason: unknown = undefined;
  private listeners: AbortListener[] | undefined = undefined;
  private controller: AbortController | undefined = undefined;

  /** An AbortSignal that follows this source (already aborted if the client is gone). */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  addEventListener(type: 'abort', listener: AbortListener): void {
    if (type !== 'abort' || this.aborted) return;
    (this.listeners ??= []).push(listener);
  }

  removeEventListener(type: 'abort', listener: AbortListener): void {
    const index = this.listeners?.indexOf(listener) ?? -1;
    if (index >= 0) this.listeners!.splice(index, 1);
  }

  /** Fires once: the signal (if made) first, then the listeners, each at most once as with `{ once: true }`. */
  abort(reason: unknown = new DOMException('This operation was aborted', 'AbortError')): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.controller?.abort(reason);
    const listeners = this.listeners;
    this.listeners = undefined;
    if (listeners) for (const listener of listeners) listener();
  }
}
