import type { EndpointId } from '../hooks/endpoints';
import type { WireFormat } from '../unified/unified-request';
import { compileValidator, type Validator } from '../validation/compile-validator';

/**
 * The minimum a native-format body must satisfy before it is forwarded unchanged. Translation validates fully
 * in each codec; passthrough only rejects what the upstream would certainly reject, so clients get a clear
 * 400 without a round trip and unknown new fields still pass.
 */
const nonEmptyArray = { type: 'array', minItems: 1 } as const;

/** Not `minItems` here: `:countTokens` may not reject empty `contents`; generation requires one turn at least. */
const geminiContents = { type: 'array', items: { type: 'object' } } as const;

/** `:countTokens` may wrap a whole generateContent request; Gemini takes camelCase and snake_case names. */
const geminiWrappedRequest = { type: 'object', required: ['contents'], properties: { contents: geminiContents } } as const;

const PASSTHROUGH_VALIDATORS: Readonly<Record<WireFormat, Validator<Record<string, unknown>>>> = Object.freeze({
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
    required: ['contents'],
    properties: { contents: { ...geminiContents, minItems: 1 } },
  }),
});

/** `:countTokens` takes `contents` (possibly empty) or a whole generateContent request wrapped. */
const GEMINI_COUNT_TOKENS_VALIDATOR = compileValidator<Record<string, unknown>>({
  type: 'object',
  properties: { contents: geminiContents },
  if: { anyOf: [{ required: ['generateContentRequest'] }, { required: ['generate_content_request'] }] },
  then: { properties: { generateContentRequest: geminiWrappedRequest, generate_content_request: geminiWrappedRequest } },
  else: { required: ['contents'] },
});

/** The check a body passes before it is forwarded unchanged: its wire format's, except Gemini's `:countTokens`. */
export function passthroughValidator(format: WireFormat, endpoint: EndpointId): Validator<Record<string, unknown>> {
  return endpoint === 'gemini.countTokens' ? GEMINI_COUNT_TOKENS_VALIDATOR : PASSTHROUGH_VALIDATORS[format];
}
