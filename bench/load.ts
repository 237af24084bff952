import autocannon from 'autocannon';

export interface LoadSpec {
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  connections: number;
  durationS: number;
}

export interface LoadResult {
  /** Completed 2xx responses. */
  ok: number;
  /** Non-2xx responses, connection errors and timeouts. */
  failed: number;
  elapsedS: number;
  /** Whole-response latencies of the 2xx answers, ms (autocannon's own histogram rounds to whole ms). */
  latenciesMs: number[];
}

/** POSTs `body` over `connections` keep-alive connections for `durationS` seconds with autocannon. */
export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const latenciesMs: number[] = [];
  let ok = 0;
  let non2xx = 0;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { url: spec.url, method: 'POST', headers: spec.headers, body: spec.body, connections: spec.connections, duration: spec.durationS, timeout: 30 },
      (error, result) => {
        if (error) return reject(error);
        resolve({ ok, failed: non2xx + result.errors, elapsedS: (performance.now() - started) / 1000, latenciesMs });
      },
    );
    instance.on('response', (_client: unknown, status: number, _bytes: number, responseTime: number) => {
      if (status >= 200 && status < 300) {
        ok += 1;
        latenciesMs.push(responseTime);
      } else {
        non2xx += 1;
      }
    });
  });
}
