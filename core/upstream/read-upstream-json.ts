import { GatewayError } from '../errors/gateway-error';
import { decodeUtf8 } from '../text/utf8';
import { maskCredentialBytes } from '../errors/mask-echoed-credentials';
import { readUpstreamBody } from './upstream-client';

const BYTE_ORDER_MARK = 0xfeff;

/**
 * An upstream's JSON answer, read whole (at most `limitBytes`) and parsed. A body that is not JSON is
 * GW_UPSTREAM_BAD_RESPONSE, naming what was asked (`the search`, a path) when `asked` is given. The credentials the
 * call sent are masked wherever the body echoes them: what is read here is translated or quoted to a client.
 */
export async function readUpstreamJson(
  response: Parameters<typeof readUpstreamBody>[0] & { credentials?: readonly string[] },
  limitBytes: number,
  asked?: string,
): Promise<unknown> {
  const decoded = decodeUtf8(maskCredentialBytes(await readUpstreamBody(response, limitBytes), response.credentials));
  // A byte-order mark before the JSON is no error (RFC 8259 §8.1: a parser may ignore it; the vendors' SDKs do).
  const text = decoded.charCodeAt(0) === BYTE_ORDER_MARK ? decoded.slice(1) : decoded;
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    throw new GatewayError('GW_UPSTREAM_BAD_RESPONSE', `upstream answered ${asked ? `${asked} with ` : ''}a body that is not JSON`, { cause });
  }
}
