import { createHash } from 'node:crypto';
import type { RequestEcho, UnifiedMessage, UnifiedRequest } from '../../unified/unified-request';

const MAX_LENGTH = 64;

/** Which function names an upstream takes, and how one it refuses is made into one it takes. */
export interface FunctionNameRule {
  valid: RegExp;
  /** A name close to `name` that `valid` accepts (made unique afterwards). */
  fix(name: string): string;
}

/** Function names every upstream takes: Anthropic and OpenAI allow letters, digits, `_` and `-`; OpenAI 64 at most. */
const PORTABLE: FunctionNameRule = {
  valid: /^[A-Za-z0-9_-]{1,64}$/,
  fix: (name) => withinNameLimit(name.replace(/[^A-Za-z0-9_-]/g, '_')) || '_',
};

/** A name past the limit: cut, with a hash of the whole name after the cut to keep it unique (as Codex does). */
export function withinNameLimit(name: string): string {
  if (name.length <= MAX_LENGTH) return name;
  const hash = createHash('sha1').update(name).digest('hex').slice(0, 8);
  return `${name.slice(0, MAX_LENGTH - hash.length - 1)}_${hash}`;
}

/**
 * Client name → upstream name for each function name `rule` refuses (by default, the names another upstream refuses:
 * Gemini also allows `.` and `:` (as in `files.read` or `mcp:search`), Gemini and Anthropic up to 128 characters
 * (Claude Code's `mcp__server__tool` names)). The other characters become `_`, a long name is cut with a hash of it,
 * and a name meeting another is numbered.
 */
export function portableFunctionNames(names: Iterable<string>, rule: FunctionNameRule = PORTABLE): Map<string, string> {
  const taken = new Set(names);
  const renames = new Map<string, string>();
  /** The next number to try per fixed name: counting from 2 again at each clash was quadratic (20000 names: 11 s). */
  const next = new Map<string, number>();
  for (const name of taken) {
    if (rule.valid.test(name)) continue;
    const base = rule.fix(name);
    let candidate = base;
    let n = next.get(base) ?? 2;
    for (; taken.has(candidate); n += 1) candidate = `${base.slice(0, MAX_LENGTH - String(n).length - 1)}_${n}`;
    next.set(base, n);
    taken.add(candidate);
    renames.set(name, candidate);
  }
  return renames;
}

/** Every function name the request uses: declared, forced, called and answered. */
export function functionNames(request: UnifiedRequest): Set<string> {
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

/** The request with each function name in `renames` replaced everywhere it appears (see functionNames). */
export function renameFunctions(request: UnifiedRequest, renames: ReadonlyMap<string, string>): UnifiedRequest {
  if (renames.size === 0) return request;
  const rename = (name: string): string => renames.get(name) ?? name;
  return {
    ...request,
    messages: request.messages.map((message) => renameMessage(message, rename)),
    ...(request.tools ? { tools: request.tools.map((tool) => ({ ...tool, name: rename(tool.name) })) } : {}),
    ...(typeof request.toolChoice === 'object' ? { toolChoice: { name: rename(request.toolChoice.name) } } : {}),
  };
}

/** Renames (old name → new) turned around, in the shape of `clientFunctionNames` (new name → old). */
export function namesBack(renames: ReadonlyMap<string, string>): Record<string, string> {
  return Object.fromEntries([...renames].map(([before, after]) => [after, before]));
}

/**
 * A Gemini or Messages client's request with the function names other upstreams refuse made portable everywhere they
 * appear, and the originals kept in `clientFunctionNames`, by which that format's encoders give the client back its
 * own names (clientFunctionNames).
 */
export function withPortableFunctionNames(request: UnifiedRequest): UnifiedRequest {
  const renames = portableFunctionNames(functionNames(request));
  if (renames.size === 0) return request;
  return { ...renameFunctions(request, renames), clientFunctionNames: namesBack(renames) };
}

/** The name the client declared for a function the upstream called (see withPortableFunctionNames). */
export function clientFunctionNames(request: Pick<RequestEcho, 'clientFunctionNames'>): (name: string) => string {
  const names = request.clientFunctionNames;
  if (!names) return (name) => name;
  return (name) => (Object.hasOwn(names, name) ? names[name] : name);
}
