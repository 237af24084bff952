import { ConfigError } from './config/load-config';
import { isGatewayError } from './errors/gateway-error';

/**
 * The one line `npm start` prints when the gateway cannot start. Failures an operator fixes (the config, a port in
 * use, an unusable store path) read as a sentence; only an unexpected error keeps its stack, for a bug report.
 */
export function describeStartupFailure(error: unknown): string {
  if (error instanceof ConfigError) return error.message;
  if (isGatewayError(error)) return `start-up failed: ${error.message}`;
  const system = error as NodeJS.ErrnoException & { address?: string; port?: number };
  if (system?.syscall === 'listen') {
    const where = `${system.address ?? 'the address'}:${String(system.port ?? '?')}`;
    if (system.code === 'EADDRINUSE') return `start-up failed: ${where} is already in use; stop what listens there or set server.port (or PORT)`;
    if (system.code === 'EACCES') return `start-up failed: no permission to listen on ${where}; use a port above 1023`;
    if (system.code === 'EADDRNOTAVAIL') return `start-up failed: ${system.address ?? 'the address'} is not an address of this machine; check server.host`;
  }
  if (typeof system?.code === 'string' && typeof system.message === 'string') return `start-up failed: ${system.message}`;
  return `start-up failed: ${String((error as Error)?.stack ?? error)}`;
}
