import type { WireFormat } from '../unified/unified-request';
import { compileValidator, type Validator } from '../validation/compile-validator';

/**
 * The minimum a native-format body must satisfy before it is forwarded unchanged. Translation validates fully
 * in each codec; passthrough only rejects what the upstream would certainly reject, so clients get a clear
 * 400 without a round trip and unknown new fields still pass.
 */
const nonEmptyArray = { type: 'array', minItems: 1 } as const;

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
  gemini: compileValidator<Record<string, unknown>>({
    type: 'object',
    properties: {
      contents: { type: 'array', items: { type: 'object' } },
    },
  }),
});
