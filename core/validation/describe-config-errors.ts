import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import { addUrlFormat, describeAjvError } from './compile-validator';

/**
 * The Ajv instance for the config file and plugin options, checked once at start-up: with every error collected,
 * so that a failed `oneOf`/`anyOf` can be explained by the branch the operator meant (describeConfigErrors). Request
 * bodies keep the shared instance, which stops at the first error.
 */
export const configAjv = new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: false, strictNumbers: true });
addFormats(configAjv);
addUrlFormat(configAjv);

/** Where an error's schema path enters a branch of a `oneOf`/`anyOf`: the combinator's path and the branch's index. */
const BRANCH = /^(.*\/(?:oneOf|anyOf))\/(\d+)(?:\/|$)/;

/**
 * The field and message an operator can act on, from every error of a failed config check. Outside a `oneOf`/`anyOf`
 * that is an unknown field if there is one (a misspelt key also leaves its field missing), else the first error. Inside one, ajv reports every branch's errors and then the
 * combinator's, and the first of them belongs to the first branch, whatever was meant: a sqlite store whose
 * `driver` is misspelt read "store.path: is not a known field" (the memory branch), a credential whose `sessionKey`
 * is misspelt read "apiKey: is required". So: when every branch is ruled out by a tag (a `const` or `enum` property
 * such as `driver`), the tag and its allowed values; else the errors of the branch that failed least, an unknown field
 * first (the misspelling), then a missing one.
 */
export function describeConfigErrors(errors: readonly ErrorObject[] | null | undefined, what: string): { param?: string; message: string } {
  const all = errors ?? [];
  const branched = all.filter((error) => BRANCH.test(error.schemaPath));
  // A misspelt key is both an unknown field and a missing one: the unknown field is the one to fix.
  if (branched.length === 0) return describeAjvError(all.find((error) => error.keyword === 'additionalProperties') ?? all[0], what);
  const branches = new Map<string, ErrorObject[]>();
  for (const error of branched) {
    const [, , index] = BRANCH.exec(error.schemaPath)!;
    const key = `${BRANCH.exec(error.schemaPath)![1]}/${index}`;
    branches.set(key, [...(branches.get(key) ?? []), error]);
  }
  const isTag = (error: ErrorObject): boolean => error.keyword === 'const' || error.keyword === 'enum';
  const open = [...branches.values()].filter((branchErrors) => !branchErrors.some(isTag));
  if (open.length === 0) {
    const tags = branched.filter(isTag);
    const field = tags[0].instancePath;
    const allowed = tags.filter((tag) => tag.instancePath === field).flatMap((tag) => (tag.keyword === 'const' ? [tag.params.allowedValue] : (tag.params.allowedValues as unknown[])));
    return describeAjvError({ ...tags[0], keyword: 'enum', params: { allowedValues: [...new Set(allowed)] } }, what);
  }
  const closest = open.reduce((best, branchErrors) => (branchErrors.length < best.length ? branchErrors : best));
  const rank = (error: ErrorObject): number => (error.keyword === 'additionalProperties' ? 0 : error.keyword === 'required' ? 2 : 1);
  return describeAjvError([...closest].sort((a, b) => rank(a) - rank(b))[0], what);
}
