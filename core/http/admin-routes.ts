import type { Express, NextFunction, Request, Response } from 'express';
import { extractCredential } from '../auth/extract-credential';
import { GatewayError } from '../errors/gateway-error';
import type { GatewayRuntime } from './gateway-runtime';
import { maskUrlCredentials } from '../errors/mask-url-credentials';

/** `/admin/*`: admin keys only (a license never opens it). Platform views are published by plugins. */
export function mountAdminRoutes(app: Express, runtime: GatewayRuntime): void {
  app.use('/admin', (req: Request, _res: Response, next: NextFunction) => {
    const presented = extractCredential({ path: req.path, headers: req.headers, query: {} });
    if (!runtime.isAdminKey(presented)) throw new GatewayError('GW_UNAUTHORIZED', 'admin endpoints need an admin key');
    next();
  });
  app.get('/admin/platforms', (_req: Request, res: Response) => {
    res.json({
      platforms: [...runtime.platforms.values()].map(({ key, plugin, options }) => ({ platform: key, plugin: plugin.name, baseUrl: maskUrlCredentials(options.baseUrl) })),
    });
  });
  app.get('/admin/:kind/:platform', async (req: Request, res: Response) => {
    const render = runtime.admin.view(String(req.params.kind), String(req.params.platform));
    if (!render) throw new GatewayError('GW_NOT_FOUND', `no ${String(req.params.kind)} view for platform "${String(req.params.platform)}"`);
    res.json(await render());
  });
  app.post('/admin/:kind/:platform/tokens/:id/reset', async (req: Request, res: Response) => {
    const reset = runtime.admin.reset(String(req.params.kind), String(req.params.platform));
    if (!reset) throw new GatewayError('GW_NOT_FOUND', `platform "${String(req.params.platform)}" has no ${String(req.params.kind)} to reset`);
    if (!(await reset(String(req.params.id)))) throw new GatewayError('GW_NOT_FOUND', `no credential "${String(req.params.id)}" on platform "${String(req.params.platform)}"`);
    res.json({ id: req.params.id, state: 'healthy' });
  });
}
