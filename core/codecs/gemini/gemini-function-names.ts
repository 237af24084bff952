import type { UnifiedRequest } from '../../unified/unified-request';
import { clientFunctionNames, functionNames, namesBack, portableFunctionNames, withinNameLimit, type FunctionNameRule } from '../shared/portable-function-names';

/**
 * Gemini's function names: a letter or `_` first, then letters, digits, `_ . : -`, 64 at most. Any other is a 400
 * "Invalid function name. Must start with a letter or an underscore" for the whole request, and chat, Responses and
 * Messages clients declare such names (MCP tools such as `21st_magic_component_builder`, `2fa_code`).
 */
const GEMINI_NAMES: FunctionNameRule = {
  valid: /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/,
  fix(name) {
    const safe = name.replace(/[^A-Za-z0-9_.:-]/g, '_');
    return withinNameLimit(/^[A-Za-z_]/.test(safe) ? safe : `_${safe}`);
  },
};

/** Worked out once per request: the encoder and the platform (requestFunctionNames) both ask for them. */
const namesOfRequest = new WeakMap<UnifiedRequest, Map<string, string>>();

/** The request's name → Gemini's, for each function name of the request Gemini refuses (unique among them all). */
export function geminiFunctionNames(request: UnifiedRequest): Map<string, string> {
  let renames = namesOfRequest.get(request);
  if (renames === undefined) namesOfRequest.set(request, (renames = portableFunctionNames(functionNames(request), GEMINI_NAMES)));
  return renames;
}

/**
 * For the answer to `request`: the request's name of a function Gemini called by the name the encoder gave it
 * (geminiFunctionNames); undefined when the encoder keeps every name.
 */
export function requestFunctionNames(request: UnifiedRequest): ((name: string) => string) | undefined {
  const renames = geminiFunctionNames(request);
  return renames.size === 0 ? undefined : clientFunctionNames({ clientFunctionNames: namesBack(renames) });
}
