import { fixtureJson } from '../../../test/helpers/fixtures';
import { TEST_LICENSE } from '../../../test/helpers/start-gateway';

/** The nock'd upstream of the plugin specs. */
export const UPSTREAM = 'https://gemini.upstream.test';
export const KEY_A = 'AIzaSyA-upstream-key-000000000000000001';
export const KEY_B = 'AIzaSyB-upstream-key-000000000000000002';

/** The all-off safety settings the platform adds by default, as the shared fixture has them. */
export const SAFETY_OFF = fixtureJson<{ safetySettings: unknown[] }>('gemini/safety-settings-off.json').safetySettings;

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_LICENSE}`, 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** The `data:` payloads of an SSE body, `[DONE]` included. */
export function sseData(text: string): string[] {
  return text
    .split(/\r?\n\r?\n/)
    .flatMap((block) => block.split(/\r?\n/).filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim()))
    .filter((data) => data !== '');
}

/** A recorded upstream request as nock hands it over. */
export interface SeenRequest {
  path: string;
  headers: Record<string, unknown>;
  body: Record<string, unknown>;
  raw: string;
}

/** The exact bytes a nock'd request carried (nock parses JSON bodies for reply functions; the raw buffers stay on the request). */
export function rawBodyOf(req: unknown): string {
  const buffers = typeof req === 'object' && req !== null && 'requestBodyBuffers' in req ? req.requestBodyBuffers : undefined;
  if (!Array.isArray(buffers) || !buffers.every((b: unknown) => Buffer.isBuffer(b))) throw new Error('nock request without body buffers');
  return Buffer.concat(buffers as Buffer[]).toString('utf8');
}
