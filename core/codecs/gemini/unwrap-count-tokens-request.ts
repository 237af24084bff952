/**
 * A `:countTokens` body → the generateContent body it counts. The API takes `contents` directly or a whole request
 * wrapped as `generateContentRequest` (older Google SDKs send it; snake_case `generate_content_request` is the same
 * field in the REST API's other spelling).
 */
export function unwrapCountTokensRequest(body: Record<string, unknown>): Record<string, unknown> {
  const inner = body.generateContentRequest ?? body.generate_content_request;
  return typeof inner === 'object' && inner !== null && !Array.isArray(inner) ? (inner as Record<string, unknown>) : body;
}
