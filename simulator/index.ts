/**
 * A deterministic fake of the Anthropic, Gemini and OpenAI APIs on loopback, in their real wire formats.
 * Mounts: `${url}/anthropic`, `${url}/gemini`, `${url}/openai` (give each plugin its own baseUrl).
 * `${url}/claude-ai` serves claude.ai's session-key → OAuth flow and the OAuth token endpoint (see anthropic-oauth.ts).
 * The reply is `Echo: <last user text>` or `Tool said: <tool result>`; directives in that text drive scenarios:
 * `[sim:error=429]`, `[sim:midstream-error]`, `[sim:chunks=N]`, `[sim:delay=MS]`, `[sim:tool]`, `[sim:thinking]`,
 * `[sim:hang]` (see directives.ts). Credentials containing `limited`, `banned` or `quota` are refused like the vendor would.
 */
export { startSimulator } from './create-simulator';
export type { RecordedRequest, Simulator, SimulatorOptions, Vendor } from './types';
