import { GatewayError, geminiCodec, geminiMethodPath, geminiModelName, messagesCodec, readUpstreamBody, type CustomHandler, type GatewaySettings } from '@gateway/core';
import type { GeminiCaller } from './create-gemini-caller';
import { inlineGeminiMedia } from './inline-gemini-media';
import { toGeminiVariant } from './to-gemini-variant';

/** What `countTokens` takes of a generateContent body: what the model reads, not how it answers. */
const COUNTED_FIELDS = ['contents', 'systemInstruction', 'tools', 'toolConfig'];

export interface CountSettings {
  apiVersion: string;
  media: GatewaySettings['media'];
}

/**
 * `POST /v1/messages/count_tokens` (Claude Code calls it) answered by Gemini's own counter: the Messages body is
 * translated like a generation request (model variant, media inlined), counted with `:countTokens`
 * (`generateContentRequest`, so the system prompt and tools count too) and answered as `{input_tokens}`.
 */
export function createCountMessagesTokens(settings: CountSettings, call: GeminiCaller): CustomHandler {
  return async (request, ctx) => {
    const decoded = toGeminiVariant({ ...messagesCodec.decodeRequest(request.body), stream: false });
    const unified = await inlineGeminiMedia(decoded, { media: settings.media, client: ctx });
    const encoded = geminiCodec.encodeRequest(unified).value;
    const counted = Object.fromEntries(Object.entries(encoded).filter(([key]) => COUNTED_FIELDS.includes(key)));
    const model = geminiModelName(unified.model);
    const path = geminiMethodPath(model, 'countTokens', settings.apiVersion);
    const upstream = await call(
      { mode: 'translate', format: 'gemini', method: 'POST', path, headers: {}, json: { generateContentRequest: { model, ...counted } }, stream: false },
      ctx,
    );
    let tokens: unknown;
    try {
      tokens = (JSON.parse((await readUpstreamBody(upstream, 1024 * 1024)).toString('utf8')) as { totalTokens?: unknown }).totalTokens;
    } catch {
      tokens = undefined;
    }
    if (typeof tokens !== 'number') throw new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream token count has no totalTokens');
    return { status: 200, json: { input_tokens: tokens } };
  };
}
