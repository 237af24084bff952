/** Raw fetch helpers for the simulator specs: what a client sees on the wire, without an SDK in between. */

export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
}

export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

export interface SseEvent {
  event?: string;
  data: string;
}

/** Splits an SSE body on blank lines (LF or CRLF) into events. */
export function parseSse(text: string): SseEvent[] {
  return text
    .split(/\r?\n\r?\n/)
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const event: SseEvent = { data: '' };
      for (const line of block.split(/\r?\n/)) {
        if (line.startsWith('event: ')) event.event = line.slice(7);
        else if (line.startsWith('data: ')) event.data = line.slice(6);
      }
      return event;
    });
}

/** Parsed JSON of each SSE event's data, `[DONE]` left out. */
export function sseJson(text: string): Record<string, unknown>[] {
  return parseSse(text)
    .filter((e) => e.data !== '[DONE]')
    .map((e) => JSON.parse(e.data) as Record<string, unknown>);
}

export function waitFor(predicate: () => boolean, timeoutMs = 3000): Promise<void> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const check = (): void => {
      if (predicate()) resolve();
      else if (Date.now() - started > timeoutMs) reject(new Error('condition not met in time'));
      else setTimeout(check, 10);
    };
    check();
  });
}
