import { geminiCodec, geminiModelPath, withTextDocumentsAsText, type GatewaySettings, type RequestContext, type UpstreamRequest } from '@gateway/core';
import { keepRenamedFunctions } from './create-function-name-stage';
import { isImagenChat, toImagenChatRequest } from './imagen-chat';
import { inlineGeminiMedia } from './inline-gemini-media';
import type { GeminiSafetySetting } from './options';
import { TRANSLATED_PENALTIES } from './refusal-repairs';
import { restoreSignatures } from './restore-signatures';
import { signatureScope, type SignatureMemo } from './signature-memo';
import { toGeminiVariant } from './to-gemini-variant';

export interface TranslatedShape {
  apiVersion: string;
  safetySettings: GeminiSafetySetting[];
  media: GatewaySettings['media'];
  /** Thought signatures kept for clients that cannot send them back. */
  signatures: Pick<SignatureMemo, 'load'>;
}

/**
 * A translated request (chat completions, responses, messages → Gemini): model variants applied (`-thinking`,
 * image models), the current turn's thought signatures put back on its function calls (the client's format had no
 * place for them), media fetched and inlined, encoded with the Gemini codec, plus the platform's safety settings.
 * Function names the codec changed are kept in `ctx.state` for the answer (createFunctionNameStage).
 * The path follows the final model name; streams the gateway asks for itself are SSE (`alt=sse`). An Imagen model
 * goes to `:predict` instead (see imagen-chat).
 */
export async function toGeminiRequest(request: UpstreamRequest, ctx: RequestContext, shape: TranslatedShape): Promise<UpstreamRequest> {
  if (!request.unified) return request;
  const variant = toGeminiVariant(request.unified);
  if (isImagenChat(variant)) return toImagenChatRequest(request, variant, shape.apiVersion);
  const messages = await restoreSignatures(variant.messages, shape.signatures, signatureScope(ctx));
  const signed = messages === variant.messages ? variant : { ...variant, messages };
  // A plain-text document is text, not one of the platform's media types: it goes as a text part.
  const unified = await inlineGeminiMedia(withTextDocumentsAsText(signed), { media: shape.media, client: ctx });
  const { value, warnings } = geminiCodec.encodeRequest(unified);
  if (warnings.length > 0) ctx.log.debug('translation dropped fields', { warnings });
  keepRenamedFunctions(ctx, geminiCodec.requestFunctionNames(unified));
  if (unified.presencePenalty !== undefined || unified.frequencyPenalty !== undefined) ctx.state.set(TRANSLATED_PENALTIES, true);
  return {
    ...request,
    unified,
    path: geminiModelPath(unified.model, unified.stream, shape.apiVersion),
    // Assigned, not spread: a spread copy gaining a key gets a hidden class of its own each time on Node 20.
    json: Object.assign({}, value, { safetySettings: shape.safetySettings }),
  };
}
