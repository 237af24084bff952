import { GatewayError } from '../errors/gateway-error';
import { parseToolJson } from '../text/exact-json-numbers';
import { decodeUtf8, withoutByteOrderMark } from '../text/utf8';
import { maskCredentialBytes } from '../errors/mask-echoed-credentials';
import { readUpstreamBody } from './upstream-client';
import { isParsableJsonTooDeep, MAX_UPSTREAM_JSON_DEPTH } from '../validation/scan-json-bytes';

/**
 * An upstream's JSON answer, read whole (at most `limitBytes`) and parsed. A body that is not JSON, or nests deeper
 * than MAX_UPSTREAM_JSON_DEPTH, is GW_UPSTREAM_BAD_RESPONSE, naming what was asked (`the search`, a path) when
 * `asked` is given. The credentials the call sent are masked wherever the body echoes them: what is read here is
 * translated or quoted to a client.
 */
export async function readUpstreamJson(
  response: Parameters<typeof readUpstreamBody>[0] & { credentials?: readonly string[] },
  limitBytes: number,
  asked?: string,
): Promise<unknown> {
  const text = withoutByteOrderMark(decodeUtf8(maskCredentialBytes(await readUpstreamBody(response, limitBytes), response.credentials)));
  if (isParsableJsonTooDeep(text, MAX_UPSTREAM_JSON_DEPTH)) throw tooDeepAnswer(asked ? `${asked} with ` : '');
  try {
    return parseToolJson(text);
  } catch (cause) {
    throw new GatewayError('GW_UPSTREAM_BAD_RESPONSE', `upstream answered ${asked ? `${asked} with ` : ''}a body that is not JSON`, { cause });
  }
}

/** An upstream answer (a body, a stream's event) nested deeper than the gateway translates. */
export function tooDeepAnswer(what = ''): GatewayError {
  return new GatewayError('GW_UPSTREAM_BAD_RESPONSE', `upstream answered ${what}JSON nested deeper than ${MAX_UPSTREAM_JSON_DEPTH} levels of arrays and objects`);
}
