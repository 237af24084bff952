import type { RequestEcho, UnifiedMessage, UnifiedRequest } from '../../unified/unified-request';
import { GEMINI_NOTES } from './gemini-notes';

/** Function names every upstream takes: Anthropic and OpenAI allow letters, digits, `_` and `-`, 64 at most. */
const PORTABLE = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_LENGTH = 64;

/**
 * Client name → upstream name for each function name other upstreams refuse (Gemini also allows `.` and `:`, as in
 * `files.read` or `mcp:search`): the other characters become `_`, numbered where that meets another name.
 */
export function portableFunctionNames(names: Iterable<string>): Map<string, string> {
  const taken = new Set(names);
  const renames = new Map<string, string>();
  for (const name of taken) {
    if (PORTABLE.test(name)) continue;
    const base = name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, MAX_LENGTH) || '_';
    let candidate = base;
    for (let n = 2; taken.has(candidate); n += 1) candidate = `${base.slice(0, MAX_LENGTH - String(n).length - 1)}_${n}`;
    taken.add(candidate);
    renames.set(name, candidate);
  }
  return renames;
}

/** Every function name the request uses: declared, forced, called and answered. */
function functionNames(request: UnifiedRequest): Set<string> {
  const names = new Set<string>((request.tools ?? []).map((tool) => tool.name));
  if (typeof request.toolChoice === 'object') names.add(request.toolChoice.name);
  for (const message of request.messages) {
    for (const part of message.content) {
      if (part.type === 'tool_call') names.add(part.name);
      else if (part.type === 'tool_result' && part.name !== undefined) names.add(part.name);
    }
  }
  return names;
}

function renameMessage(message: UnifiedMessage, rename: (name: string) => string): UnifiedMessage {
  const content = message.content.map((part) => {
    if (part.type === 'tool_call') return { ...part, name: rename(part.name) };
    if (part.type === 'tool_result' && part.name !== undefined) return { ...part, name: rename(part.name) };
    return part;
  });
  return { ...message, content };
}

/**
 * A Gemini client's request with the function names other upstreams refuse made portable everywhere they appear,
 * and a note of the originals, by which the Gemini encoders give the client back its own names (clientFunctionName).
 */
export function withPortableFunctionNames(request: UnifiedRequest): UnifiedRequest {
  const renames = portableFunctionNames(functionNames(request));
  if (renames.size === 0) return request;
  const rename = (name: string): string => renames.get(name) ?? name;
  const extensions = request.extensions?.gemini ?? {};
  return {
    ...request,
    messages: request.messages.map((message) => renameMessage(message, rename)),
    ...(request.tools ? { tools: request.tools.map((tool) => ({ ...tool, name: rename(tool.name) })) } : {}),
    ...(typeof request.toolChoice === 'object' ? { toolChoice: { name: rename(request.toolChoice.name) } } : {}),
    extensions: {
      ...request.extensions,
      gemini: { ...extensions, [GEMINI_NOTES.functionNames]: Object.fromEntries([...renames].map(([client, portable]) => [portable, client])) },
    },
  };
}

/** The name the client declared for a function the upstream called (see withPortableFunctionNames). */
export function clientFunctionNames(request: RequestEcho): (name: string) => string {
  const note = request.extensions?.gemini?.[GEMINI_NOTES.functionNames] as Record<string, string> | undefined;
  if (!note) return (name) => name;
  return (name) => (Object.hasOwn(note, name) ? note[name] : name);
}
