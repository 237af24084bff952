import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { ConfigError } from '../../core/config/load-config';
import { describeStartupFailure } from '../../core/describe-startup-failure';
import { GatewayError } from '../../core/errors/gateway-error';

/** The error Node gives a second server on a port already taken. */
async function listenError(): Promise<unknown> {
  const first = http.createServer();
  await new Promise<void>((resolve) => first.listen(0, '127.0.0.1', resolve));
  const { port } = first.address() as AddressInfo;
  const second = http.createServer();
  const error = await new Promise((resolve) => {
    second.once('error', resolve);
    second.listen(port, '127.0.0.1');
  });
  first.close();
  return error;
}

describe('describeStartupFailure', () => {
  it('gives a config error its own message', () => {
    expect(describeStartupFailure(new ConfigError('invalid config x: platforms: is required'))).to.equal('invalid config x: platforms: is required');
  });

  it('says which address is taken, with no stack', async () => {
    const line = describeStartupFailure(await listenError());
    expect(line).to.match(/^start-up failed: 127\.0\.0\.1:\d+ is already in use; stop what listens there or set server\.port \(or PORT\)$/);
  });

  it('gives a gateway error (an unusable store path) its message only', () => {
    const line = describeStartupFailure(new GatewayError('GW_INTERNAL', 'sqlite store /x/y.db: unable to open database file'));
    expect(line).to.equal('start-up failed: sqlite store /x/y.db: unable to open database file');
  });

  it('gives a system error its message only', () => {
    const error = Object.assign(new Error("EACCES: permission denied, mkdir '/root/x'"), { code: 'EACCES', syscall: 'mkdir' });
    expect(describeStartupFailure(error)).to.equal("start-up failed: EACCES: permission denied, mkdir '/root/x'");
  });

  it('keeps the stack of an unexpected error, for a bug report', () => {
    const line = describeStartupFailure(new TypeError('x is not a function'));
    expect(line).to.match(/^start-up failed: TypeError: x is not a function\n\s+at /);
  });
});
