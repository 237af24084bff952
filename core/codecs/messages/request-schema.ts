import type { Schema } from 'ajv';
import { compileValidator } from '../../validation/compile-validator';
import type { MessagesRequest } from './messages-types';

/** `if: {type: <name>}` for a block union member. */
function whenType(name: string, then: Schema): Schema {
  return { if: { properties: { type: { const: name } }, required: ['type'] }, then };
}

const nullableObject = { type: ['object', 'null'] };

const imageSource: Schema = {
  type: 'object',
  required: ['type'],
  properties: { type: { enum: ['base64', 'url', 'file'] } },
  allOf: [
    whenType('base64', {
      required: ['media_type', 'data'],
      properties: { media_type: { type: 'string' }, data: { type: 'string' } },
    }),
    whenType('url', { required: ['url'], properties: { url: { type: 'string' } } }),
    whenType('file', { required: ['file_id'], properties: { file_id: { type: 'string' } } }),
  ],
};

const documentSource: Schema = {
  type: 'object',
  required: ['type'],
  properties: { type: { enum: ['base64', 'url', 'text', 'content', 'file'] } },
  allOf: [
    whenType('base64', {
      required: ['media_type', 'data'],
      properties: { media_type: { type: 'string' }, data: { type: 'string' } },
    }),
    whenType('url', { required: ['url'], properties: { url: { type: 'string' } } }),
    whenType('text', { required: ['data'], properties: { data: { type: 'string' } } }),
    whenType('content', {
      required: ['content'],
      properties: { content: { type: ['string', 'array'], items: { $ref: '#/$defs/block' } } },
    }),
    whenType('file', { required: ['file_id'], properties: { file_id: { type: 'string' } } }),
  ],
};

/**
 * A content block. Only the shapes the gateway reads are checked; other block types (server-tool
 * results, beta blocks) pass here and are judged by the decoder, which knows the turn's role.
 */
const block: Schema = {
  type: 'object',
  required: ['type'],
  properties: { type: { type: 'string' }, cache_control: nullableObject },
  allOf: [
    whenType('text', { required: ['text'], properties: { text: { type: 'string' } } }),
    whenType('image', { required: ['source'], properties: { source: imageSource } }),
    whenType('document', {
      required: ['source'],
      properties: { source: documentSource, title: { type: ['string', 'null'] } },
    }),
    whenType('search_result', {
      required: ['content'],
      properties: { content: { type: 'array', items: { $ref: '#/$defs/block' } }, title: { type: 'string' }, source: { type: 'string' } },
    }),
    whenType('tool_use', {
      required: ['id', 'name', 'input'],
      properties: { id: { type: 'string', minLength: 1 }, name: { type: 'string', minLength: 1 }, input: { type: 'object' } },
    }),
    whenType('tool_result', {
      required: ['tool_use_id'],
      properties: {
        tool_use_id: { type: 'string', minLength: 1 },
        is_error: { type: 'boolean' },
        content: { type: ['string', 'array'], items: { $ref: '#/$defs/block' } },
      },
    }),
    whenType('thinking', {
      required: ['thinking'],
      properties: { thinking: { type: 'string' }, signature: { type: 'string' } },
    }),
    whenType('redacted_thinking', { required: ['data'], properties: { data: { type: 'string' } } }),
  ],
};

const message: Schema = {
  type: 'object',
  required: ['role'],
  properties: {
    role: { enum: ['user', 'assistant', 'system'] },
    content: { type: ['string', 'array'], items: { $ref: '#/$defs/block' } },
  },
  // Beta `system` messages may omit content; user and assistant turns may not.
  if: { required: ['role'], properties: { role: { enum: ['user', 'assistant'] } } },
  then: { required: ['content'] },
};

const tool: Schema = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1 },
    type: { type: ['string', 'null'] },
    description: { type: 'string' },
    input_schema: { type: 'object' },
    cache_control: nullableObject,
  },
  // A custom tool (no `type`, or `custom`) needs its schema; dated tools do not have one.
  if: { anyOf: [{ not: { required: ['type'] } }, { properties: { type: { enum: ['custom', null] } } }] },
  then: { required: ['input_schema'] },
};

const messagesRequestSchema: Schema = {
  type: 'object',
  required: ['model', 'messages'],
  $defs: { block },
  properties: {
    model: { type: 'string', minLength: 1 },
    max_tokens: { type: 'integer', minimum: 1 },
    messages: { type: 'array', minItems: 1, items: message },
    system: { type: ['string', 'array'], items: block },
    tools: { type: 'array', items: tool },
    tool_choice: {
      type: 'object',
      required: ['type'],
      properties: {
        type: { enum: ['auto', 'any', 'tool', 'none'] },
        name: { type: 'string' },
        disable_parallel_tool_use: { type: 'boolean' },
      },
      if: { required: ['type'], properties: { type: { const: 'tool' } } },
      then: { required: ['name'] },
    },
    thinking: {
      type: 'object',
      required: ['type'],
      properties: {
        type: { enum: ['enabled', 'disabled', 'adaptive', 'between_tools'] },
        budget_tokens: { type: 'integer', minimum: 0 },
      },
      if: { required: ['type'], properties: { type: { const: 'enabled' } } },
      then: { required: ['budget_tokens'] },
    },
    output_config: {
      type: 'object',
      properties: {
        effort: { type: ['string', 'null'] },
        format: {
          type: ['object', 'null'],
          properties: { type: { const: 'json_schema' }, schema: { type: 'object' } },
        },
      },
    },
    output_format: {
      type: ['object', 'null'],
      properties: { type: { const: 'json_schema' }, schema: { type: 'object' } },
    },
    metadata: { type: 'object', properties: { user_id: { type: ['string', 'null'] } } },
    mcp_servers: { type: 'array', items: { type: 'object' } },
    thread: {
      type: ['object', 'null'],
      required: ['type'],
      properties: { type: { enum: ['create', 'continue'] }, previous_message_id: { type: 'string' } },
    },
    stop_sequences: { type: 'array', items: { type: 'string' } },
    temperature: { type: 'number' },
    top_p: { type: 'number' },
    top_k: { type: 'integer', minimum: 0 },
    stream: { type: 'boolean' },
  },
};

/** Validates a Messages request body; throws GW_INVALID_REQUEST naming the field. */
export const validateMessagesRequest = compileValidator<MessagesRequest>(messagesRequestSchema);
