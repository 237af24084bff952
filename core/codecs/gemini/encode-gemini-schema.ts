import { isPlainObject } from '../shared/is-plain-object';


/** `format` values the Gemini Schema accepts, by type; any other format is a 400 there. */
const FORMATS: Readonly<Record<string, readonly string[]>> = {
  string: ['enum', 'date-time'],
  number: ['float', 'double'],
  integer: ['int32', 'int64'],
};

/**
 * The most schema nodes, and characters of text (descriptions, titles, enum values, property names), a pruned schema
 * may have. Inlining `$ref`s multiplies a schema (each def naming the next twice doubles it: 3 KB of defs grew past
 * the heap; one long description named by thousands of properties made 127 MB of 122 KB); one beyond either goes
 * whole as `parametersJsonSchema` instead.
 */
const MAX_PRUNED_NODES = 5_000;
const MAX_PRUNED_CHARS = 1_000_000;

interface PruneContext {
  defs: Record<string, unknown>;
  /** `$ref` names being expanded, so a recursive schema stops instead of looping. */
  expanding: Set<string>;
  /** Nodes made so far (see MAX_PRUNED_NODES). */
  nodes: number;
  /** Text copied so far (see MAX_PRUNED_CHARS). */
  chars: number;
}

/** Counts text a pruned node copies; past the limit the schema is too large to prune. */
function copyText<T extends string | string[]>(ctx: PruneContext, text: T): T {
  ctx.chars += typeof text === 'string' ? text.length : text.reduce((sum, value) => sum + value.length, 0);
  if (ctx.chars > MAX_PRUNED_CHARS) throw new TooLargeToPrune();
  return text;
}

/** Thrown when a schema would prune past MAX_PRUNED_NODES. */
class TooLargeToPrune extends Error {}

function mergeAllOf(node: Record<string, unknown>): Record<string, unknown> {
  const { allOf, ...rest } = node;
  // Gathered in maps and an array, each item's keys once: copying the properties and required names gathered so far
  // for every item was quadratic (5000 items of one property each held the event loop 7.6 s). Maps, not objects
  // assigned to: a `__proto__` key of the client's stays a key.
  const merged = new Map<string, unknown>();
  const properties = new Map<string, unknown>();
  const required: unknown[] = [];
  for (const sub of Array.isArray(allOf) ? allOf : []) {
    if (!isPlainObject(sub)) continue;
    for (const [key, value] of Object.entries(sub)) merged.set(key, value);
    if (isPlainObject(sub.properties)) for (const [key, value] of Object.entries(sub.properties)) properties.set(key, value);
    if (Array.isArray(sub.required)) for (const name of sub.required) required.push(name);
    merged.set('properties', properties);
    merged.set('required', required);
  }
  if (merged.has('properties')) merged.set('properties', Object.fromEntries(properties));
  return { ...Object.fromEntries(merged), ...rest };
}

function typeList(node: Record<string, unknown>): string[] {
  const { type } = node;
  if (typeof type === 'string') return [type.toLowerCase()];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === 'string').map((t) => t.toLowerCase());
  return [];
}

/** Keywords that belong to one JSON type: a branch of a multi-type node keeps only its own type's. */
const KEYWORDS_OF_TYPE: Readonly<Record<string, readonly string[]>> = {
  object: ['properties', 'required', 'propertyOrdering', 'additionalProperties'],
  array: ['items', 'minItems', 'maxItems'],
  string: ['enum', 'format'],
  number: ['minimum', 'maximum', 'format'],
  integer: ['minimum', 'maximum', 'format'],
};

function branchOfType(node: Record<string, unknown>, type: string): Record<string, unknown> {
  const branch: Record<string, unknown> = { type };
  for (const key of KEYWORDS_OF_TYPE[type] ?? []) if (node[key] !== undefined) branch[key] = node[key];
  if (Array.isArray(branch.enum)) branch.enum = branch.enum.filter((value) => typeof value === 'string');
  return branch;
}

function isNullSchema(value: unknown): boolean {
  return isPlainObject(value) && typeList(value).length === 1 && typeList(value)[0] === 'null';
}

function prune(input: Record<string, unknown>, ctx: PruneContext): Record<string, unknown> {
  if (++ctx.nodes > MAX_PRUNED_NODES) throw new TooLargeToPrune();
  if (typeof input.$ref === 'string') {
    const name = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(input.$ref)?.[1];
    const target = name === undefined ? undefined : ctx.defs[name];
    const { $ref: _ref, ...rest } = input;
    if (name === undefined || !isPlainObject(target) || ctx.expanding.has(name)) return prune({ type: 'object', ...rest }, ctx);
    ctx.expanding.add(name);
    const expanded = prune({ ...target, ...rest }, ctx);
    ctx.expanding.delete(name);
    return expanded;
  }
  // Each merged item counts as a node: a `$ref` to a long allOf, referenced from many places, is merged at each.
  if (Array.isArray(input.allOf) && (ctx.nodes += input.allOf.length) > MAX_PRUNED_NODES) throw new TooLargeToPrune();
  const node = Array.isArray(input.allOf) ? mergeAllOf(input) : input;

  // Each type once: `["object","object",…]` would otherwise multiply every level below it.
  let types = [...new Set(typeList(node))];
  let nullable = node.nullable === true || types.includes('null');
  types = types.filter((t) => t !== 'null');

  const branches = [...(Array.isArray(node.anyOf) ? node.anyOf : []), ...(Array.isArray(node.oneOf) ? node.oneOf : [])].filter(isPlainObject);
  const nonNull = branches.filter((b) => !isNullSchema(b));
  if (nonNull.length < branches.length) nullable = true;
  if (nonNull.length === 1 && types.length === 0) {
    // `anyOf: [X, {type: null}]` (how Pydantic writes Optional[X]) is X with nullable.
    const { anyOf: _a, oneOf: _o, ...outer } = node;
    const flat = prune({ ...nonNull[0], ...outer }, ctx);
    return nullable ? { ...flat, nullable: true } : flat;
  }

  const out: Record<string, unknown> = {};
  if (nonNull.length > 1) out.anyOf = nonNull.map((b) => prune(b, ctx));
  else if (types.length > 1) {
    // `type: ["string", "array"]`: one branch per type, each with that type's own keywords (an ARRAY branch
    // without its `items` is a 400 "items: missing field"); the shared words stay outside.
    out.anyOf = types.map((t) => prune(branchOfType(node, t), ctx));
    if (typeof node.title === 'string') out.title = copyText(ctx, node.title);
    if (typeof node.description === 'string') out.description = copyText(ctx, node.description);
    if (nullable) out.nullable = true;
    return out;
  }

  let type = types.length === 1 ? types[0] : undefined;
  // A null value stands for `nullable`; Gemini refuses an empty one ("enum[0]: cannot be empty"), so it is left out.
  const enumValues: unknown[] = Array.isArray(node.enum) ? node.enum : [];
  if (enumValues.includes(null)) nullable = true;
  const listed = enumValues.filter((v) => v !== null);
  const stringValues = listed.filter((v): v is string => typeof v === 'string');
  const nonEmpty = stringValues.filter((v) => v !== '');
  const stringEnum = listed.length > 0 && stringValues.length === listed.length && nonEmpty.length > 0 ? nonEmpty : undefined;
  const constEnum = typeof node.const === 'string' && node.const !== '' ? [node.const] : undefined;
  if (type === undefined && out.anyOf === undefined) {
    if (isPlainObject(node.properties)) type = 'object';
    else if (node.items !== undefined) type = 'array';
    else if (stringEnum || constEnum) type = 'string';
  }
  if (type !== undefined) out.type = type;
  if (typeof node.format === 'string' && type !== undefined && FORMATS[type]?.includes(node.format)) out.format = node.format;
  if (typeof node.title === 'string') out.title = copyText(ctx, node.title);
  if (typeof node.description === 'string') out.description = copyText(ctx, node.description);
  if (nullable) out.nullable = true;
  if (type === 'string' && (stringEnum ?? constEnum)) out.enum = copyText(ctx, (stringEnum ?? constEnum)!);

  if (isPlainObject(node.properties)) {
    const entries = Object.entries(node.properties).filter((e): e is [string, Record<string, unknown>] => isPlainObject(e[1]));
    if (entries.length > 0) {
      out.properties = Object.fromEntries(entries.map(([name, sub]) => [copyText(ctx, name), prune(sub, ctx)]));
      const names = new Set(entries.map(([name]) => name));
      const required = Array.isArray(node.required) ? node.required.filter((r): r is string => typeof r === 'string' && names.has(r)) : [];
      if (required.length > 0) out.required = [...new Set(required)];
      if (Array.isArray(node.propertyOrdering)) {
        const ordering = node.propertyOrdering.filter((p): p is string => typeof p === 'string' && names.has(p));
        if (ordering.length > 0) out.propertyOrdering = ordering;
      }
    }
  }
  const items = Array.isArray(node.items) ? node.items[0] : node.items;
  if (isPlainObject(items)) out.items = prune(items, ctx);
  else if (type === 'array') out.items = {};
  for (const key of ['minItems', 'maxItems', 'minimum', 'maximum'] as const) {
    if (typeof node[key] === 'number') out[key] = node[key];
  }
  return out;
}

/**
 * JSON Schema → the OpenAPI subset Gemini's `parameters` accepts (type, format, title, description,
 * nullable, enum, properties, required, items, anyOf, minItems/maxItems, minimum/maximum,
 * propertyOrdering). Gemini answers 400 "Unknown name … Cannot find field" for anything else, so
 * `$schema`, `additionalProperties`, `propertyNames`, `exclusiveMinimum`, `default`, `pattern` … are
 * dropped; `["x","null"]` and `anyOf [X, null]` become `nullable`; `const` a one-value enum; local
 * `$ref`s are inlined (recursive ones end as a plain object); `allOf` is merged. Undefined when the result would
 * exceed MAX_PRUNED_NODES (the caller sends the schema whole).
 */
export function encodeGeminiSchema(schema: Record<string, unknown>): Record<string, unknown> | undefined {
  const defs = { ...(isPlainObject(schema.definitions) ? schema.definitions : {}), ...(isPlainObject(schema.$defs) ? schema.$defs : {}) };
  try {
    return prune(schema, { defs, expanding: new Set(), nodes: 0, chars: 0 });
  } catch (error) {
    if (error instanceof TooLargeToPrune) return undefined;
    throw error;
  }
}
