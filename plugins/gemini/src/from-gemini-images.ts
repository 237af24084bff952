import { GatewayError, isBase64Payload, type GeneratedImage } from '@gateway/core';
import { isRecord } from './gemini-json';

/** What one upstream image call gave: its images, and why there are none when there are none. */
export interface GeminiImageAnswer {
  images: GeneratedImage[];
  /** Filter reasons, block reasons or the model's own words, for an answer without images. */
  reasons: string[];
  usage?: GeminiImageUsage;
}

/** OpenAI's image usage, `input_tokens_details` included (the SDK's type has it, and typed clients read it). */
export interface GeminiImageUsage {
  input_tokens: number;
  input_tokens_details: { image_tokens: number; text_tokens: number };
  output_tokens: number;
  total_tokens: number;
}

/** Tokens of one modality in Gemini's `promptTokensDetails` (`[{modality: "TEXT", tokenCount}]`). */
function modalityTokens(details: unknown, modality: string): number {
  if (!Array.isArray(details)) return 0;
  return details.filter(isRecord).reduce((sum, entry) => sum + (entry.modality === modality && typeof entry.tokenCount === 'number' ? entry.tokenCount : 0), 0);
}

/**
 * A generateContent answer of an image model (fixtures gemini/response-image.json): every `inlineData` image part of
 * the candidates; thought images (`thought: true`, drafts of thinking models) are skipped.
 */
export function fromGenerateContentImages(json: unknown): GeminiImageAnswer {
  if (!isRecord(json)) throw new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream image answer is not a GenerateContentResponse');
  const images: GeneratedImage[] = [];
  const reasons: string[] = [];
  const texts: string[] = [];
  const feedback = isRecord(json.promptFeedback) ? json.promptFeedback : undefined;
  if (typeof feedback?.blockReason === 'string') reasons.push(`prompt blocked: ${feedback.blockReason}`);
  for (const candidate of Array.isArray(json.candidates) ? json.candidates.filter(isRecord) : []) {
    const parts = isRecord(candidate.content) && Array.isArray(candidate.content.parts) ? candidate.content.parts.filter(isRecord) : [];
    for (const part of parts) {
      const inline = isRecord(part.inlineData) ? part.inlineData : isRecord(part.inline_data) ? part.inline_data : undefined;
      if (inline && typeof inline.data === 'string' && part.thought !== true) {
        const mimeType = inline.mimeType ?? inline.mime_type;
        images.push({ data: base64Image(inline.data, 'an inlineData part'), ...(typeof mimeType === 'string' ? { mediaType: mimeType } : {}) });
      } else if (typeof part.text === 'string' && part.thought !== true) {
        texts.push(part.text);
      }
    }
    if (typeof candidate.finishReason === 'string' && candidate.finishReason !== 'STOP') reasons.push(`finish reason ${candidate.finishReason}`);
  }
  if (texts.join('').trim()) reasons.push(`the model answered: ${texts.join('').trim().slice(0, 500)}`);
  const meta = isRecord(json.usageMetadata) ? json.usageMetadata : undefined;
  const input = typeof meta?.promptTokenCount === 'number' ? meta.promptTokenCount : 0;
  const output = typeof meta?.candidatesTokenCount === 'number' ? meta.candidatesTokenCount : 0;
  if (!meta) return { images, reasons };
  const inputDetails = { image_tokens: modalityTokens(meta.promptTokensDetails, 'IMAGE'), text_tokens: modalityTokens(meta.promptTokensDetails, 'TEXT') };
  // Without details, the prompt is counted as text.
  if (inputDetails.image_tokens + inputDetails.text_tokens === 0) inputDetails.text_tokens = input;
  const total = typeof meta.totalTokenCount === 'number' ? meta.totalTokenCount : input + output;
  return { images, reasons, usage: { input_tokens: input, input_tokens_details: inputDetails, output_tokens: output, total_tokens: total } };
}

/**
 * An Imagen `:predict` answer (fixtures gemini-imagen/response-predict.json): the image predictions only; a
 * filtered entry (`raiFilteredReason`) gives a reason, the `contentType: "Positive Prompt"` safety entry is not an image.
 */
export function fromImagenPredictions(json: unknown): GeminiImageAnswer {
  if (!isRecord(json)) throw new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream Imagen answer is not a prediction list');
  const images: GeneratedImage[] = [];
  const reasons: string[] = [];
  for (const prediction of Array.isArray(json.predictions) ? json.predictions.filter(isRecord) : []) {
    if (typeof prediction.bytesBase64Encoded === 'string' && prediction.bytesBase64Encoded) {
      images.push({ data: base64Image(prediction.bytesBase64Encoded, 'a prediction'), ...(typeof prediction.mimeType === 'string' ? { mediaType: prediction.mimeType } : {}) });
    } else if (typeof prediction.raiFilteredReason === 'string') {
      reasons.push(prediction.raiFilteredReason);
    }
  }
  return { images, reasons };
}

/**
 * An image's data as the upstream gave it, when it is base64 of something: an empty or garbled one would be answered
 * as a 200 image (a data URI, or a file link serving nothing), and a task recorded completed with it.
 */
function base64Image(data: string, where: string): string {
  if (!isBase64Payload(data)) throw new GatewayError('GW_UPSTREAM_BAD_RESPONSE', `upstream answered a malformed image: ${where} whose data is not base64`);
  return data;
}

/** No image at all: a 400 with the upstream's reasons (filters, refusals), or a 502 when it gave none. */
export function noImageError(reasons: readonly string[]): GatewayError {
  if (reasons.length === 0) return new GatewayError('GW_UPSTREAM_BAD_RESPONSE', 'upstream answered without any image');
  return new GatewayError('GW_INVALID_REQUEST', `upstream generated no image: ${[...new Set(reasons)].join('; ')}`, { upstreamCode: 'image_generation_refused' });
}
