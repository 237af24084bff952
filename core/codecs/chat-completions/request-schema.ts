import { compileValidator } from '../../validation/compile-validator';
import type { ChatCompletionsRequest } from './chat-completions-types';

const nullableNumber = { type: ['number', 'null'] };
const nullableInteger = { type: ['integer', 'null'] };
const nullableString = { type: ['string', 'null'] };
const nullableBoolean = { type: ['boolean', 'null'] };

function whenType(type: string, required: string[], properties: Record<string, unknown> = {}): Record<string, unknown> {
  // `required` in the `if`: without it the `if` holds when `type` is missing, and the error names the wrong field.
  return { if: { required: ['type'], properties: { type: { const: type } } }, then: { required, properties } };
}

const contentPart = {
  type: 'object',
  required: ['type'],
  properties: { type: { enum: ['text', 'image_url', 'input_audio', 'file', 'refusal'] } },
  allOf: [
    whenType('text', ['text'], { text: { type: 'string' } }),
    whenType('image_url', ['image_url'], {
      image_url: { type: 'object', required: ['url'], properties: { url: { type: 'string', minLength: 1 }, detail: { type: 'string' } } },
    }),
    whenType('input_audio', ['input_audio'], {
      input_audio: { type: 'object', required: ['data', 'format'], properties: { data: { type: 'string' }, format: { type: 'string' } } },
    }),
    whenType('file', ['file'], {
      file: {
        type: 'object',
        properties: { file_data: { type: 'string' }, file_id: { type: 'string' }, filename: { type: 'string' } },
      },
    }),
    whenType('refusal', ['refusal'], { refusal: { type: 'string' } }),
  ],
};

const toolCall = {
  type: 'object',
  required: ['id', 'function'],
  properties: {
    id: { type: 'string' },
    type: { enum: ['function'] },
    function: {
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string', minLength: 1 }, arguments: { type: 'string' } },
    },
  },
};

const message = {
  type: 'object',
  required: ['role'],
  properties: {
    role: { enum: ['system', 'developer', 'user', 'assistant', 'tool'] },
    content: { type: ['string', 'array', 'null'], items: contentPart },
    name: { type: 'string' },
    tool_calls: { type: ['array', 'null'], items: toolCall },
    tool_call_id: { type: 'string' },
    reasoning_content: nullableString,
    reasoning: nullableString,
    refusal: nullableString,
  },
  allOf: [
    { if: { required: ['role'], properties: { role: { const: 'tool' } } }, then: { required: ['tool_call_id', 'content'] } },
    { if: { required: ['role'], properties: { role: { enum: ['system', 'developer', 'user'] } } }, then: { required: ['content'] } },
  ],
};

const functionDefinition = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1 },
    description: { type: 'string' },
    parameters: { type: 'object' },
    strict: nullableBoolean,
  },
};

const tool = {
  type: 'object',
  required: ['type'],
  properties: { type: { enum: ['function'] } },
  // Conditional, so a tool of another type is reported by its type, not by its missing `function`.
  ...whenType('function', ['function'], { function: functionDefinition }),
};

const toolChoice = {
  anyOf: [
    { enum: ['auto', 'none', 'required'] },
    {
      type: 'object',
      required: ['type', 'function'],
      properties: {
        type: { const: 'function' },
        function: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
      },
    },
    {
      type: 'object',
      required: ['type', 'allowed_tools'],
      properties: {
        type: { const: 'allowed_tools' },
        allowed_tools: {
          type: 'object',
          required: ['mode', 'tools'],
          properties: { mode: { enum: ['auto', 'required'] }, tools: { type: 'array', items: { type: 'object' } } },
        },
      },
    },
    { type: 'null' },
  ],
};

const responseFormat = {
  type: ['object', 'null'],
  required: ['type'],
  properties: { type: { enum: ['text', 'json_object', 'json_schema'] } },
  allOf: [
    whenType('json_schema', ['json_schema'], {
      json_schema: {
        type: 'object',
        required: ['name'],
        properties: { name: { type: 'string' }, description: { type: 'string' }, schema: { type: 'object' }, strict: nullableBoolean },
      },
    }),
  ],
};

/** OAS `CreateChatCompletionRequest`, the fields the gateway reads; unknown fields are allowed. */
const chatCompletionsRequestSchema = {
  type: 'object',
  required: ['model', 'messages'],
  properties: {
    model: { type: 'string', minLength: 1 },
    messages: { type: 'array', minItems: 1, items: message },
    tools: { type: ['array', 'null'], items: tool },
    tool_choice: toolChoice,
    parallel_tool_calls: nullableBoolean,
    max_tokens: { type: ['integer', 'null'], minimum: 1 },
    max_completion_tokens: { type: ['integer', 'null'], minimum: 1 },
    temperature: nullableNumber,
    top_p: nullableNumber,
    top_k: nullableInteger,
    stop: { type: ['string', 'array', 'null'], items: { type: 'string' } },
    seed: nullableInteger,
    presence_penalty: nullableNumber,
    frequency_penalty: nullableNumber,
    response_format: responseFormat,
    reasoning_effort: { enum: ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', null] },
    budget_tokens: { type: ['integer', 'null'], minimum: 0 },
    // Anthropic's `thinking` object (its OpenAI-SDK layer documents it); other compatible services send their own
    // shapes here, so only the budget the gateway reads is typed.
    thinking: { type: ['object', 'null'], properties: { budget_tokens: { type: 'integer', minimum: 0 } } },
    stream: nullableBoolean,
    stream_options: { type: ['object', 'null'], properties: { include_usage: nullableBoolean } },
    user: nullableString,
    web_search_options: { type: ['object', 'null'] },
    logprobs: nullableBoolean,
    top_logprobs: { type: ['integer', 'null'], minimum: 0 },
    modalities: { type: ['array', 'null'], items: { enum: ['text', 'audio', 'image'] } },
    // Typed so that a value of the wrong type is the 400 it is rather than a refusal skipped (n: "2" answered once).
    n: { type: ['integer', 'null'], minimum: 1 },
    logit_bias: { type: ['object', 'null'], additionalProperties: { type: 'number' } },
  },
} as const;

/** Validates a chat-completions body; throws GW_INVALID_REQUEST naming the field. */
export const validateChatCompletionsRequest = compileValidator<ChatCompletionsRequest>(chatCompletionsRequestSchema);
