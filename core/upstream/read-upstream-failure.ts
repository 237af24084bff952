import type { UpstreamFailure, UpstreamResponse } from '../hooks/plugin-api';
import { maskGivenSecrets } from '../errors/mask-secret';
import { withoutByteOrderMark } from '../text/utf8';
import { readUpstreamBody } from './upstream-client';

/** Upper bound on an error body read for classification. */
const ERROR_BODY_LIMIT = 256 * 1024;

/**
 * Reads a non-2xx answer's body (bounded) for classification; a body that cannot be read counts as empty. The
 * credentials the call sent are masked in it first: every classifier (core's, a plugin's) quotes the upstream's text,
 * and an upstream refusing a key often quotes the key.
 */
export async function readUpstreamFailure(response: UpstreamResponse): Promise<UpstreamFailure> {
  let text = '';
  try {
    text = withoutByteOrderMark(maskGivenSecrets((await readUpstreamBody(response, ERROR_BODY_LIMIT)).toString('utf8'), response.credentials ?? []));
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
