import type { Schema } from 'ajv';
import { GatewayError, isGatewayError } from '../../errors/gateway-error';
import { compileValidator } from '../../validation/compile-validator';
import type { GeminiGenerateContentResponse } from './gemini-types';

const part = {
  type: 'object',
  properties: {
    text: { type: 'string' },
    thought: { type: 'boolean' },
    thoughtSignature: { type: 'string' },
    inlineData: { type: 'object', required: ['mimeType', 'data'], properties: { mimeType: { type: 'string' }, data: { type: 'string' } } },
    fileData: { type: 'object', required: ['fileUri'], properties: { mimeType: { type: 'string' }, fileUri: { type: 'string' } } },
    functionCall: { type: 'object', required: ['name'], properties: { id: { type: 'string' }, name: { type: 'string' }, args: { type: 'object' } } },
    executableCode: { type: 'object', required: ['code'], properties: { language: { type: 'string' }, code: { type: 'string' } } },
    codeExecutionResult: { type: 'object', properties: { outcome: { type: 'string' }, output: { type: 'string' } } },
  },
};

const count = { type: 'integer', minimum: 0 };

/** GenerateContentResponse as the Gemini API answers it (one body, or one chunk of a stream). */
const geminiResponseSchema: Schema = {
  type: 'object',
  properties: {
    candidates: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          content: { type: 'object', properties: { role: { type: 'string' }, parts: { type: 'array', items: part } } },
          finishReason: { type: 'string' },
          finishMessage: { type: 'string' },
        },
      },
    },
    promptFeedback: { type: 'object', properties: { blockReason: { type: 'string' } } },
    usageMetadata: {
      type: 'object',
      properties: {
        promptTokenCount: count,
        candidatesTokenCount: count,
        totalTokenCount: count,
        cachedContentTokenCount: count,
        thoughtsTokenCount: count,
        toolUsePromptTokenCount: count,
      },
    },
    modelVersion: { type: 'string' },
    responseId: { type: 'string' },
    createTime: { type: 'string' },
  },
};

const validate = compileValidator<GeminiGenerateContentResponse>(geminiResponseSchema, 'upstream response');

/** Validates an upstream body; a shape we cannot read is the upstream's fault (GW_UPSTREAM_BAD_RESPONSE). */
export function validateResponse(body: unknown): GeminiGenerateContentResponse {
  try {
    return validate(body);
  } catch (error) {
    if (!isGatewayError(error)) throw error;
    throw new GatewayError('GW_UPSTREAM_BAD_RESPONSE', `upstream Gemini response: ${error.message}`, { cause: error });
  }
}
