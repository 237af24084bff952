import type { UpstreamFailure, UpstreamResponse } from '../hooks/plugin-api';
import { maskGivenSecrets } from '../errors/mask-secret';
import { withoutByteOrderMark } from '../text/utf8';
import { readUpstreamBody } from './upstream-client';
import { createSseParser } from '../sse/parse-sse';
import { isEventStream } from '../sse/is-event-stream';

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
  if (isEventStream(response.headers['content-type'])) text = firstEventData(text) ?? text;
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/**
 * An error answered as an event stream (a refused stream request: `event: error` and its `data: {…}`): its first
 * event's data, which classifiers read as the body it stands for; the stream's text itself quoted the framing to the
 * client. Undefined when it holds no event.
 */
function firstEventData(text: string): string | undefined {
  const parser = createSseParser();
  try {
    return [...parser.push(text), ...parser.end()][0]?.data;
  } catch {
    return undefined;
  }
}
