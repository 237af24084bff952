import type { WireFormat } from '../unified/unified-request';
import { compileValidator, type Validator } from '../validation/compile-validator';

/**
 * The minimum a native-format body must satisfy before it is forwarded unchanged. Translation validates fully
 * in each codec; passthrough only rejects what the upstream would certainly reject, so clients get a clear
 * 400 without a round trip and unknown new fields still pass.
 */
const nonEmptyArray = { type: 'array', minItems: 1 } as const;

/** Not `minItems`: one schema serves `:countTokens` too, which may not reject empty `contents`. */
const geminiContents = { type: 'array', items: { type: 'object' } } as const;

/** `:countTokens` may wrap a whole generateContent request; Gemini takes camelCase and snake_case names. */
const geminiWrappedRequest = { type: 'object', required: ['contents'], properties: { contents: geminiContents } } as const;

export const PASSTHROUGH_VALIDATORS: Readonly<Record<WireFormat, Validator<Record<string, unknown>>>> = Object.freeze({
  'chat-completions': compileValidator<Record<string, unknown>>({
    type: 'object',
    required: ['model', 'messages'],
    properties: {
      model: { type: 'string', minLength: 1 },
      messages: { ...nonEmptyArray, items: { type: 'object', required: ['role'], properties: { role: { type: 'string' } } } },
      stream: { type: 'boolean' },
    },
  }),
  responses: compileValidator<Record<string, unknown>>({
    type: 'object',
    required: ['model'],
    properties: {
      model: { type: 'string', minLength: 1 },
      input: { anyOf: [{ type: 'string' }, { type: 'array' }] },
      stream: { type: 'boolean' },
    },
  }),
  messages: compileValidator<Record<string, unknown>>({
    type: 'object',
    required: ['model', 'messages'],
    properties: {
      model: { type: 'string', minLength: 1 },
      messages: { type: 'array', items: { type: 'object', required: ['role', 'content'] } },
      stream: { type: 'boolean' },
    },
  }),
  // generateContent, streamGenerateContent and countTokens share this: each needs `contents`, unless countTokens wraps it.
  gemini: compileValidator<Record<string, unknown>>({
    type: 'object',
    properties: { contents: geminiContents },
    if: { anyOf: [{ required: ['generateContentRequest'] }, { required: ['generate_content_request'] }] },
    then: { properties: { generateContentRequest: geminiWrappedRequest, generate_content_request: geminiWrappedRequest } },
    else: { required: ['contents'] },
  }),
});
