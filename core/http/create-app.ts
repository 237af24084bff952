import http from 'node:http';
import express, { type Request, type Response } from 'express';
import { GatewayError } from '../errors/gateway-error';
import { ENDPOINTS, GATEWAY_ROUTES } from '../hooks/endpoints';
import type { GatewayRuntime } from './gateway-runtime';
import { createEndpointHandler } from './handle-endpoint';
import { sdkDialect } from '../models-api/model-dialect';
import { createErrorMiddleware } from './error-middleware';
import { createRequestLog, HEALTH_PATH } from './request-log';
import { answerClientError, answerUnmetExpectation } from './answer-client-error';
import { mountAdminRoutes } from './admin-routes';
import { mountFileRoutes } from '../files';

/** The Express app: health, admin, every endpoint under `/:platform`, 404s and the error renderer. */
export function createApp(runtime: GatewayRuntime): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(createRequestLog(runtime.log));

  app.get(HEALTH_PATH, (_req: Request, res: Response) => {
    res.json({ status: 'ok', platforms: [...runtime.platforms.keys()] });
  });
  mountAdminRoutes(app, runtime);
  mountFileRoutes(app, runtime.store, runtime.log);

  for (const spec of ENDPOINTS) {
    const handler = createEndpointHandler(spec, runtime);
    if (spec.method === 'GET') app.get(`/:platform${spec.path}`, handler);
    else app.post(`/:platform${spec.path}`, handler);
  }
  const gemini = ENDPOINTS.find((spec) => spec.id === 'gemini.models');
  if (gemini) {
    const generate = createEndpointHandler({ id: 'gemini.generateContent', method: 'POST', path: '/v1beta/models/:modelAction', family: 'gemini', format: 'gemini', body: 'json' }, runtime);
    // A wildcard: model ids of other platforms' upstreams hold slashes (`openai/gpt-4o`, `meta-llama/Llama-3.1-8B`),
    // which the genai SDK sends unencoded.
    app.post('/:platform/v1beta/models/*modelAction', generate);
    app.post('/:platform/v1/models/*modelAction', generate);
    // The SDK's `apiVersion: 'v1alpha'`, and a tuned model (`model: 'tunedModels/…'`), as Gemini serves them.
    app.post('/:platform/v1alpha/models/*modelAction', generate);
    app.post('/:platform/v1beta/tunedModels/*modelAction', generate);
    app.get('/:platform/v1alpha/models', createEndpointHandler(gemini, runtime));
    const geminiGet = ENDPOINTS.find((spec) => spec.id === 'gemini.models.get');
    if (geminiGet) app.get('/:platform/v1alpha/models/*model', createEndpointHandler(geminiGet, runtime));
  }

  app.use((req: Request, res: Response) => {
    // A path no family claims (`/claude/v1/files`): the SDK that asked gets the error in its own shape.
    if (res.locals.family === 'openai') res.locals.family = sdkDialect(req.headers, req.query as Record<string, unknown>);
    // The Anthropic SDK reads its error's request id from `request-id`, as request-log sets it for Messages paths.
    if (res.locals.family === 'messages' && !res.hasHeader('request-id')) res.setHeader('request-id', String(res.locals.requestId));
    const platform = req.path.split('/')[1] ?? '';
    // The gateway's own segments (`/admin/...`) are never a platform: an unknown path there is a missing route.
    if (platform && !GATEWAY_ROUTES.includes(platform) && !runtime.platforms.has(platform)) {
      throw new GatewayError('GW_PLATFORM_NOT_FOUND', `no platform "${platform}" is configured on this gateway`);
    }
    throw new GatewayError('GW_ROUTE_NOT_FOUND', `no route for ${req.method} ${req.path}`);
  });
  app.use(createErrorMiddleware(runtime.log, runtime.maskSecrets));
  return app;
}

/**
 * The HTTP server. Its request/response constructors already produce objects whose prototypes are Express's
 * `app.request`/`app.response`, so Express's per-request `setPrototypeOf` becomes a no-op (expressjs/express#5998).
 */
export function createHttpServer(app: express.Express): http.Server {
  const protos = app as unknown as { request: object; response: object };
  function GatewayRequest(this: http.IncomingMessage, socket: import('node:net').Socket): void {
    http.IncomingMessage.call(this, socket);
  }
  function GatewayResponse(this: http.ServerResponse, req: http.IncomingMessage): void {
    http.ServerResponse.call(this, req);
  }
  GatewayRequest.prototype = protos.request;
  GatewayResponse.prototype = protos.response;
  const server = http.createServer(
    {
      IncomingMessage: GatewayRequest as unknown as typeof http.IncomingMessage,
      ServerResponse: GatewayResponse as unknown as typeof http.ServerResponse,
      keepAliveTimeout: 65_000,
    },
    app,
  );
  // Node keeps the first 1,000 headers and drops the rest without a word (a content-length among them made a body
  // read as empty); the header size limit (16 KB) already bounds how many can come.
  server.maxHeadersCount = 0;
  server.on('clientError', answerClientError);
  server.on('checkExpectation', answerUnmetExpectation);
  return server;
}
