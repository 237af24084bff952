import http from 'node:http';
import type { Duplex } from 'node:stream';
import { GatewayError } from '../errors/gateway-error';
import { errorFamilyForPath } from '../hooks/endpoints';
import { encodeErrorResponse } from './render-error';

/** What Node's HTTP parser refuses before Express sees a request, as the status and words a client is told. */
function describeClientError(code: string | undefined): { status: number; message: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, message: `request headers are larger than the limit of ${http.maxHeaderSize} bytes` };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, message: 'the request did not arrive whole in time' };
    default:
      return { status: 400, message: `malformed HTTP request${code ? ` (${code})` : ''}` };
  }
}

/**
 * The path of the request line Node was parsing (`POST /claude/v1/messages HTTP/1.1`) when the failing read holds it,
 * else of the request in flight (one whose body stalled). Headers that overflow in a later read than their request line
 * leave neither: the OpenAI shape then.
 */
function requestPathOf(rawPacket: unknown, current: http.ServerResponse | undefined): string {
  const line = Buffer.isBuffer(rawPacket) ? rawPacket.toString('latin1', 0, Math.min(rawPacket.length, 8192)) : '';
  return /^[A-Z]+ (\S+) HTTP\//.exec(line)?.[1] ?? current?.req?.url ?? '/';
}

/**
 * Node's `clientError`: a request its parser refused (headers over the size limit, a bad chunk size, a request that
 * stalled past `requestTimeout`). Node's own answer is a bare status with no body, which the SDKs report as
 * "431 status code (no body)": it now carries the endpoint family's error, as every other refusal does. Nothing is
 * written once an answer to the connection's current request has begun.
 */
export function answerClientError(error: Error & { code?: string; rawPacket?: unknown }, socket: Duplex): void {
  const current = (socket as Duplex & { _httpMessage?: http.ServerResponse })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || current?.headersSent) {
    socket.destroy();
    return;
  }
  const { status, message } = describeClientError(error.code);
  const family = errorFamilyForPath(requestPathOf(error.rawPacket, current));
  const answer = encodeErrorResponse(family, new GatewayError('GW_INVALID_REQUEST', message, { status }));
  const head = Object.entries({ ...answer.headers, connection: 'close' })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 ${answer.status} ${http.STATUS_CODES[answer.status] ?? ''}\r\n${head}\r\n${answer.text}`);
}

/** Node's `checkExpectation`: an `expect` header other than `100-continue` is a 417 in the endpoint family's shape. */
export function answerUnmetExpectation(req: http.IncomingMessage, res: http.ServerResponse): void {
  const answer = encodeErrorResponse(
    errorFamilyForPath(req.url ?? '/'),
    new GatewayError('GW_INVALID_REQUEST', `expect: ${String(req.headers.expect)} cannot be met; only 100-continue is`, { status: 417, param: 'expect' }),
  );
  res.writeHead(answer.status, { ...answer.headers, connection: 'close' });
  res.end(answer.text);
}
