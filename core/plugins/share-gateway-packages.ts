import Module from 'node:module';

type ResolveFilename = (this: unknown, request: string, ...rest: unknown[]) => string;

/** The gateway's own resolution of each `@gateway/*` package asked for so far. */
const own = new Map<string, string | null>();
let installed = false;

/**
 * From now on, `@gateway/*` (core, the shipped plugins) resolves to the running gateway's own packages, whoever asks:
 * a plugin given by path or installed beside the config gets the same core as the gateway (its hooks, errors and
 * classes are shared by identity), and under `npm start` the built JavaScript, not the TypeScript sources it would
 * find above it in the repository. Node 20 has no public hook for CommonJS resolution; wrapping
 * `Module._resolveFilename` is what module-alias and tsconfig-paths do.
 */
export function shareGatewayPackages(): void {
  if (installed) return;
  installed = true;
  const internals = Module as unknown as { _resolveFilename: ResolveFilename };
  const resolve = internals._resolveFilename;
  // Resolved with the original function: through the wrapper, it would call itself.
  const resolveOwn = (request: string): string | null => {
    try {
      return resolve.call(Module, request, null, false, { paths: [__dirname] });
    } catch {
      return null;
    }
  };
  internals._resolveFilename = function resolveGatewayPackage(request, ...rest) {
    if (request.startsWith('@gateway/')) {
      if (!own.has(request)) own.set(request, resolveOwn(request));
      const path = own.get(request);
      if (path) return path;
    }
    return resolve.call(this, request, ...rest);
  };
}
