import { geminiModelName, type GatewaySettings, type RequestContext, type UpstreamRequest } from '@gateway/core';
import { ADDED_DEFAULT_SAFETY, type SafetySettings } from './create-safety-settings';
import { toGeminiNativeRequest } from './to-gemini-native-request';
import type { SignatureMemo } from './signature-memo';
import { toGeminiRequest } from './to-gemini-request';

export interface ShapeSettings {
  apiVersion: string;
  safety: SafetySettings;
  media: GatewaySettings['media'];
  signatures: Pick<SignatureMemo, 'load'>;
}

/** The platform's requestTransform: native requests keep their bytes where possible, translated ones are built whole. */
export async function shapeGeminiRequest(request: UpstreamRequest, ctx: RequestContext, settings: ShapeSettings): Promise<UpstreamRequest> {
  if (request.mode === 'translate') {
    const safetySettings = settings.safety.forRequest(ctx);
    return toGeminiRequest(request, ctx, { apiVersion: settings.apiVersion, safetySettings, media: settings.media, signatures: settings.signatures });
  }
  const safetySettings = settings.safety.current();
  // The model of a native call is in its path, which goes upstream as sent: one that is no Gemini model name
  // (`..%2Fcorpora%2Fx`, decoded here) could choose the upstream path the operator's key is sent to.
  if (ctx.params.model !== undefined) geminiModelName(ctx.params.model);
  const generate = ctx.endpoint === 'gemini.generateContent' || ctx.endpoint === 'gemini.streamGenerateContent';
  const { request: shaped, addedSafety } = toGeminiNativeRequest(request, { generate, safetySettings });
  if (addedSafety && settings.safety.isDefault) ctx.state.set(ADDED_DEFAULT_SAFETY, true);
  return shaped;
}
