import { compileValidator } from '../../validation/compile-validator';
import type { ResponsesRequest } from './responses-types';

const nullableNumber = { type: ['number', 'null'] };
const nullableString = { type: ['string', 'null'] };
const nullableBoolean = { type: ['boolean', 'null'] };

function when(property: string, value: string, required: string[], properties: Record<string, unknown> = {}): Record<string, unknown> {
  return { if: { required: [property], properties: { [property]: { const: value } } }, then: { required, properties } };
}

/** Input item types the decoder reads; `item_reference` is rejected (the gateway keeps no items). */
const RESPONSES_INPUT_ITEM_TYPES = [
  'message', 'function_call', 'function_call_output', 'reasoning', 'custom_tool_call', 'custom_tool_call_output',
  'local_shell_call', 'local_shell_call_output',
  'web_search_call', 'file_search_call', 'image_generation_call', 'code_interpreter_call', 'compaction',
] as const;

const contentPart = {
  type: 'object',
  required: ['type'],
  properties: { type: { enum: ['input_text', 'input_image', 'input_file', 'input_audio', 'output_text', 'refusal'] } },
  allOf: [
    when('type', 'input_text', ['text'], { text: { type: 'string' } }),
    when('type', 'output_text', ['text'], { text: { type: 'string' } }),
    when('type', 'refusal', ['refusal'], { refusal: { type: 'string' } }),
    when('type', 'input_image', [], { image_url: nullableString, file_id: nullableString, detail: { type: 'string' } }),
    when('type', 'input_file', [], { file_data: { type: 'string' }, file_url: { type: 'string' }, file_id: nullableString, filename: { type: 'string' } }),
    when('type', 'input_audio', ['input_audio'], {
      input_audio: { type: 'object', required: ['data', 'format'], properties: { data: { type: 'string' }, format: { type: 'string' } } },
    }),
  ],
};

const outputValue = { type: ['string', 'array'], items: contentPart };

const inputItem = {
  type: 'object',
  properties: { type: { enum: [...RESPONSES_INPUT_ITEM_TYPES] } },
  allOf: [
    // An item without `type` is an "easy" message: `{role, content}`.
    { if: { not: { required: ['type'] } }, then: { required: ['role', 'content'] } },
    when('type', 'message', ['role', 'content']),
    {
      if: { required: ['role'] },
      then: { properties: { role: { enum: ['user', 'assistant', 'system', 'developer'] }, content: { type: ['string', 'array'], items: contentPart } } },
    },
    when('type', 'function_call', ['call_id', 'name', 'arguments'], {
      call_id: { type: 'string', minLength: 1 },
      name: { type: 'string', minLength: 1 },
      arguments: { type: 'string' },
    }),
    when('type', 'function_call_output', ['call_id', 'output'], { call_id: { type: 'string', minLength: 1 }, output: outputValue }),
    when('type', 'reasoning', [], {
      summary: { type: 'array', items: { type: 'object', required: ['text'], properties: { text: { type: 'string' } } } },
      content: { type: ['array', 'null'], items: { type: 'object', required: ['text'], properties: { text: { type: 'string' } } } },
      encrypted_content: nullableString,
    }),
    when('type', 'custom_tool_call', ['call_id', 'name', 'input'], { call_id: { type: 'string' }, name: { type: 'string' }, input: { type: 'string' } }),
    when('type', 'custom_tool_call_output', ['call_id', 'output'], { call_id: { type: 'string' }, output: outputValue }),
    when('type', 'local_shell_call', ['call_id', 'action'], { call_id: { type: 'string' }, action: { type: 'object' } }),
    when('type', 'local_shell_call_output', ['id', 'output'], { id: { type: 'string' }, output: { type: 'string' } }),
  ],
};

const functionTool = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string', minLength: 1 }, description: nullableString, parameters: { type: ['object', 'null'] }, strict: nullableBoolean },
};

/** `if` on a `type` const must require `type` too: without it the `if` holds for a tool with no type at all. */
const asFunctionTool = { if: { required: ['type'], properties: { type: { const: 'function' } } }, then: functionTool };

/** A `namespace` groups tools (Codex's MCP servers); its functions are checked as top-level ones are. */
const namespaceMember = { type: 'object', required: ['type'], properties: { type: { type: 'string' } }, allOf: [asFunctionTool] };

const tool = {
  type: 'object',
  required: ['type'],
  properties: { type: { type: 'string' } },
  allOf: [
    asFunctionTool,
    {
      if: { required: ['type'], properties: { type: { const: 'namespace' } } },
      then: { required: ['name', 'tools'], properties: { name: { type: 'string' }, tools: { type: 'array', items: namespaceMember } } },
    },
  ],
};

/** OAS `CreateResponse`, the fields the gateway reads; unknown fields are allowed. */
const responsesRequestSchema = {
  type: 'object',
  required: ['model', 'input'],
  properties: {
    model: { type: 'string', minLength: 1 },
    input: { type: ['string', 'array'], minLength: 1, minItems: 1, items: inputItem },
    instructions: nullableString,
    tools: { type: ['array', 'null'], items: tool },
    tool_choice: {
      anyOf: [{ enum: ['auto', 'none', 'required', null] }, { type: 'object', required: ['type'], properties: { type: { type: 'string' } } }],
    },
    parallel_tool_calls: nullableBoolean,
    max_output_tokens: { type: ['integer', 'null'], minimum: 1 },
    temperature: nullableNumber,
    top_p: nullableNumber,
    reasoning: {
      type: ['object', 'null'],
      properties: {
        effort: { enum: ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', null] },
        summary: { enum: ['auto', 'concise', 'detailed', null] },
      },
    },
    text: {
      type: ['object', 'null'],
      properties: {
        format: {
          type: ['object', 'null'],
          required: ['type'],
          properties: { type: { enum: ['text', 'json_object', 'json_schema'] } },
          allOf: [when('type', 'json_schema', ['schema'], { name: { type: 'string' }, schema: { type: 'object' }, strict: nullableBoolean })],
        },
        verbosity: { enum: ['low', 'medium', 'high', null] },
      },
    },
    top_logprobs: { type: ['integer', 'null'], minimum: 0, maximum: 20 },
    stream: nullableBoolean,
    store: nullableBoolean,
    include: { type: ['array', 'null'], items: { type: 'string' } },
    previous_response_id: nullableString,
    user: nullableString,
  },
} as const;

/** Validates a responses body; throws GW_INVALID_REQUEST naming the field. */
export const validateResponsesRequest = compileValidator<ResponsesRequest>(responsesRequestSchema);
