import { sendUpstreamRequest, type PlatformBaseOptions, type RequestContext, type UpstreamRequest, type UpstreamResponse } from '@gateway/core';
import { callWithPoolTokens } from './call-with-pool-tokens';
import type { RotationSet } from './create-rotation-set';
import { parsePoolModel } from './parse-pool-model';
import type { PoolSettings } from './resolve-pool-settings';

/** The platform's upstreamCall: each attempt sends the request with one pool token as `Authorization: Bearer`. */
export function createPoolCaller(
  rotation: RotationSet,
  settings: PoolSettings,
  platform: Pick<PlatformBaseOptions, 'baseUrl' | 'timeouts'>,
  upstreamModels: () => ReadonlySet<string>,
) {
  return (request: UpstreamRequest, ctx: RequestContext): Promise<UpstreamResponse> => {
    const model = ctx.model === undefined ? undefined : { name: ctx.model, premium: parsePoolModel(ctx.model, settings.premiumModels, upstreamModels()).premium };
    return callWithPoolTokens({
      rotation,
      settings,
      ctx,
      model,
      requestBody: request.body,
      send: (token) => sendUpstreamRequest(request, ctx, platform, { authorization: `Bearer ${token.secret}` }),
    });
  };
}

export type PoolCaller = ReturnType<typeof createPoolCaller>;
