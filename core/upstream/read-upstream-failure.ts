import type { UpstreamFailure, UpstreamResponse } from '../hooks/plugin-api';
import { readUpstreamBody } from './upstream-client';

/** Upper bound on an error body read for classification. */
const ERROR_BODY_LIMIT = 256 * 1024;

/** Reads a non-2xx answer's body (bounded) for classification; a body that cannot be read counts as empty. */
export async function readUpstreamFailure(response: UpstreamResponse): Promise<UpstreamFailure> {
  let text = '';
  try {
    text = (await readUpstreamBody(response, ERROR_BODY_LIMIT)).toString('utf8');
  } catch {
    text = '';
  }
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}
