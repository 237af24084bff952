import { Stage, sendUpstreamRequest, type GatewayPlugin, type RouteDecision, type RouteQuery, type WireFormat } from '@gateway/core';

/**
 * Test-only platform: translates every generation endpoint to one upstream wire format (never passthrough),
 * so a test can drive any client format × upstream format pair through the real pipeline against the simulator.
 * Load it by absolute path: `{ plugin: FORMAT_PLUGIN_PATH, baseUrl: sim.<vendor>Url, upstream, apiKey }`.
 */
export interface FormatPluginOptions {
  upstream: WireFormat;
  apiKey: string;
}

const PLUGIN_NAME = 'test-format';

export const FORMAT_PLUGIN_PATH = __filename;

/** The simulator vendor that speaks each upstream format. */
export const VENDOR_OF_FORMAT: Readonly<Record<WireFormat, 'openai' | 'anthropic' | 'gemini'>> = {
  'chat-completions': 'openai',
  responses: 'openai',
  messages: 'anthropic',
  gemini: 'gemini',
};

const GENERATION_ENDPOINTS = new Set(['chat.completions', 'responses', 'messages', 'gemini.generateContent', 'gemini.streamGenerateContent']);

/** Each vendor's own way of presenting an API key. */
function credentialHeaders(format: WireFormat, apiKey: string): Record<string, string> {
  switch (VENDOR_OF_FORMAT[format]) {
    case 'anthropic':
      return { 'x-api-key': apiKey, 'anthropic-version': '2023-06-01' };
    case 'gemini':
      return { 'x-goog-api-key': apiKey };
    case 'openai':
      return { authorization: `Bearer ${apiKey}` };
  }
}

const formatPlugin: GatewayPlugin<FormatPluginOptions> = {
  name: PLUGIN_NAME,
  apiVersion: '^1',
  optionsSchema: {
    type: 'object',
    required: ['upstream', 'apiKey'],
    properties: {
      upstream: { enum: ['chat-completions', 'responses', 'messages', 'gemini'] },
      apiKey: { type: 'string', minLength: 1 },
    },
  },
  apply(hooks, { key, options }) {
    const tap = { name: PLUGIN_NAME, stage: Stage.PLATFORM };
    const headers = credentialHeaders(options.upstream, options.apiKey);
    hooks.route.for(key).tap(tap, (query: RouteQuery): RouteDecision | undefined =>
      GENERATION_ENDPOINTS.has(query.endpoint) ? { mode: 'translate', upstream: options.upstream } : undefined,
    );
    hooks.upstreamCall.for(key).tapPromise(tap, (request, ctx) => sendUpstreamRequest(request, ctx, options, headers));
  },
};

export default formatPlugin;
