import http from 'node:http';

/** One streamed answer as the client saw it; times in ms from the moment the request was sent. */
export interface StreamSample {
  status: number;
  headersMs: number;
  /** First body byte: the first event. */
  firstByteMs: number;
  totalMs: number;
  /** Socket reads that carried body bytes: with paced chunks, one per chunk when nothing buffers them. */
  reads: number;
  complete: boolean;
}

export interface StreamRequest {
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  /** Text a complete answer contains (its terminal event). */
  endMarker: string;
}

/** Sends one request and times its answer. */
export function timeRequest(agent: http.Agent, request: StreamRequest, onFirstByte?: () => void): Promise<StreamSample> {
  let notified = false;
  const notify = (): void => {
    if (notified) return;
    notified = true;
    onFirstByte?.();
  };
  return new Promise<StreamSample>((resolve) => {
    const started = performance.now();
    const sample: StreamSample = { status: 0, headersMs: NaN, firstByteMs: NaN, totalMs: NaN, reads: 0, complete: false };
    let tail = '';
    const req = http.request(request.url, { method: 'POST', agent, headers: { ...request.headers, 'content-length': String(request.body.length) } }, (res) => {
      sample.status = res.statusCode ?? 0;
      sample.headersMs = performance.now() - started;
      res.on('data', (chunk: Buffer) => {
        if (sample.reads === 0) {
          sample.firstByteMs = performance.now() - started;
          notify();
        }
        sample.reads += 1;
        tail = (tail + chunk.toString('latin1')).slice(-400);
      });
      res.on('end', () => {
        sample.totalMs = performance.now() - started;
        sample.complete = sample.status === 200 && tail.includes(request.endMarker);
        resolve(sample);
      });
      res.on('error', () => resolve(sample));
    });
    req.on('error', () => resolve(sample));
    req.end(request.body);
  }).then((sample) => {
    notify();
    return sample;
  });
}

/** `concurrency` clients, each sending requests back to back until `durationMs` has passed. */
export async function runStreamClients(request: StreamRequest, concurrency: number, durationMs: number): Promise<{ samples: StreamSample[]; elapsedS: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const samples: StreamSample[] = [];
  const started = performance.now();
  const deadline = started + durationMs;
  const worker = async (): Promise<void> => {
    while (performance.now() < deadline) samples.push(await timeRequest(agent, request));
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsedS = (performance.now() - started) / 1000;
  agent.destroy();
  return { samples, elapsedS };
}

/**
 * Opens `count` streams at once (one connection each), calls `whileOpen` once every stream has sent its first
 * byte (or failed), and resolves with all samples when the last one has ended.
 */
export async function openManyStreams(request: StreamRequest, count: number, whileOpen: () => Promise<void>): Promise<StreamSample[]> {
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  let opened = 0;
  let allOpen!: () => void;
  const open = new Promise<void>((resolve) => (allOpen = resolve));
  const onOpen = (): void => {
    opened += 1;
    if (opened === count) allOpen();
  };
  const pending = Array.from({ length: count }, () => timeRequest(agent, request, onOpen));
  await open;
  await whileOpen();
  const samples = await Promise.all(pending);
  agent.destroy();
  return samples;
}
