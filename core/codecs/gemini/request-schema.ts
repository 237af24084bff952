import type { Schema } from 'ajv';
import { compileValidator } from '../../validation/compile-validator';
import type { GeminiGenerateContentRequest } from './gemini-types';

const blob = {
  type: 'object',
  required: ['mimeType', 'data'],
  properties: { mimeType: { type: 'string' }, data: { type: 'string' } },
};

const fileData = {
  type: 'object',
  required: ['fileUri'],
  properties: { mimeType: { type: 'string' }, fileUri: { type: 'string', minLength: 1 } },
};

const part = {
  type: 'object',
  properties: {
    text: { type: 'string' },
    thought: { type: 'boolean' },
    thoughtSignature: { type: 'string' },
    inlineData: blob,
    fileData,
    functionCall: {
      type: 'object',
      required: ['name'],
      properties: { id: { type: 'string' }, name: { type: 'string', minLength: 1 }, args: { type: 'object' } },
    },
    functionResponse: {
      type: 'object',
      required: ['name'],
      properties: {
        id: { type: 'string' },
        name: { type: 'string', minLength: 1 },
        response: { type: 'object' },
        parts: { type: 'array', items: { type: 'object', properties: { inlineData: blob, fileData } } },
      },
    },
    executableCode: {
      type: 'object',
      required: ['code'],
      properties: { language: { type: 'string' }, code: { type: 'string' } },
    },
    codeExecutionResult: {
      type: 'object',
      properties: { outcome: { type: 'string' }, output: { type: 'string' } },
    },
  },
};

const content = {
  type: 'object',
  required: ['parts'],
  properties: {
    role: { enum: ['user', 'model', 'function'] },
    parts: { type: 'array', minItems: 1, items: part },
  },
};

const tool = {
  type: 'object',
  properties: {
    functionDeclarations: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name'],
        properties: {
          name: { type: 'string', minLength: 1 },
          description: { type: 'string' },
          parameters: { type: 'object' },
          parametersJsonSchema: { type: 'object' },
        },
      },
    },
    googleSearch: { type: 'object' },
    codeExecution: { type: 'object' },
  },
};

const generationConfig = {
  type: 'object',
  properties: {
    maxOutputTokens: { type: 'integer', minimum: 1 },
    temperature: { type: 'number' },
    topP: { type: 'number' },
    topK: { type: 'number' },
    stopSequences: { type: 'array', items: { type: 'string' } },
    seed: { type: 'integer' },
    presencePenalty: { type: 'number' },
    frequencyPenalty: { type: 'number' },
    responseMimeType: { type: 'string' },
    responseLogprobs: { type: 'boolean' },
    logprobs: { type: 'integer', minimum: 0 },
    responseSchema: { type: 'object' },
    responseJsonSchema: { type: 'object' },
    responseModalities: { type: 'array', items: { type: 'string' } },
    imageConfig: { type: 'object', properties: { aspectRatio: { type: 'string' } } },
    thinkingConfig: {
      type: 'object',
      properties: {
        includeThoughts: { type: 'boolean' },
        thinkingBudget: { type: 'integer' },
        thinkingLevel: { type: 'string' },
      },
    },
  },
};

/** GenerateContentRequest after `normalizeGeminiKeys`. Unknown fields are allowed (kept in extensions). */
const geminiRequestSchema: Schema = {
  type: 'object',
  required: ['contents'],
  properties: {
    contents: { type: 'array', minItems: 1, items: content },
    systemInstruction: { type: 'object', required: ['parts'], properties: { parts: { type: 'array', items: part } } },
    tools: { type: 'array', items: tool },
    toolConfig: {
      type: 'object',
      properties: {
        functionCallingConfig: {
          type: 'object',
          properties: {
            mode: { enum: ['AUTO', 'ANY', 'NONE', 'VALIDATED', 'MODE_UNSPECIFIED'] },
            allowedFunctionNames: { type: 'array', items: { type: 'string' } },
          },
        },
      },
    },
    generationConfig,
    safetySettings: { type: 'array', items: { type: 'object' } },
    cachedContent: { type: 'string' },
  },
};

export const validateRequest = compileValidator<GeminiGenerateContentRequest>(geminiRequestSchema);

/** `:countTokens` takes the same body, but an empty `contents` too (Gemini counts it). */
export const validateCountRequest = compileValidator<GeminiGenerateContentRequest>({
  ...geminiRequestSchema,
  properties: { ...geminiRequestSchema.properties, contents: { type: 'array', items: content } },
});
