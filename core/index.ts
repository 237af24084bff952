/**
 * @gateway/core: the one import of every plugin. Hooks and their types, errors, codecs, the unified model,
 * and the helpers plugins share (upstream calls, validation, secrets).
 */
export { createGatewayHooks, type GatewayHooks } from './hooks/gateway-hooks';
export { Stage } from './hooks/stages';
export { ENDPOINTS, isModelsEndpoint, type EndpointId, type EndpointSpec } from './hooks/endpoints';
export * from './hooks/plugin-api';
export type { PlatformAdmin } from './plugins/admin-registry';
export * from './errors';
export { classifyUpstreamFailure, parseRetryAfter, readErrorEnvelope } from './errors/classify-upstream-failure';
export * from './unified';
export * from './codecs';
export { compileValidator, type Validator } from './validation/compile-validator';
export { sendUpstreamRequest } from './upstream/send-upstream-request';
export { readUpstreamBody, type UpstreamClient, type UpstreamTimeouts } from './upstream/upstream-client';
export { readUpstreamJson } from './upstream/read-upstream-json';
export { closeUpstreamBody } from './upstream/close-upstream-body';
export { isEventStream } from './sse/is-event-stream';
export type { Store } from './store/store';
export { createCallMemo, type CallMemo, type CallMemoOptions } from './store/create-call-memo';
export { createHeldWrites, type HeldWrites } from './store/create-held-writes';
export { isExactNumber, parseToolJson, withExactToolNumbers } from './text/exact-json-numbers';
export type { Logger } from './logging';
export { createGateway, type Gateway } from './gateway';
export { loadConfig, parseConfig, ConfigError } from './config/load-config';
export type { GatewayConfig, GatewayConfigFile, PlatformConfig } from './config/config-types';
export * from './credentials';
export { readUpstreamFailure } from './upstream/read-upstream-failure';
export { peekFirstSseEvent, type PeekedStream, type PeekOptions } from './upstream/peek-first-sse-event';
export type { WireEvent } from './sse/wire-event';
export { createSseParser, type SseParser } from './sse/parse-sse';
export * from './media-api';
export * from './models-api';
export * from './tasks';
export { createFileLinks, requestBaseUrl, type FileLinks, type FileLinksOptions } from './files';
export { encodeMultipart, type MultipartPart } from './upstream/encode-multipart';
export { estimateGeminiTokenCount, estimateMessagesTokenCount } from './pipeline/estimate-token-count';
export * from './media';
export { decodeGeminiError } from './codecs/gemini/decode-gemini-error';
export { decodeMessagesError } from './codecs/shared/decode-messages-error';
export { decodeOpenAiError } from './codecs/shared/decode-openai-error';
export { parseDataUri, toDataUri, type DataUri } from './codecs/shared/parse-data-uri';
export { callIdKey } from './codecs/shared/call-id-key';
export { takesAdaptiveThinking } from './codecs/messages/takes-adaptive-thinking';
export { geminiMethodPath, geminiModelName, geminiModelPath } from './codecs/gemini/gemini-model-path';
export { unwrapCountTokensRequest } from './codecs/gemini/unwrap-count-tokens-request';
export { refuseUntranslatableFields } from './codecs/shared/refuse-untranslatable-fields';
export { urlExtension } from './codecs/shared/url-extension';
