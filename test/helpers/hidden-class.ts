import v8 from 'node:v8';

v8.setFlagsFromString('--allow-natives-syntax');
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

/**
 * How many of `objects` have a hidden class (V8 map) other than the first one's. Code that copies with
 * `{ ...source, newKey }` gives each copy a map of its own on Node 20 once its call site is warm (after ~4 calls),
 * so callers should produce ≥ 10 objects through the same code before asking.
 */
export function hiddenClassesBeyondFirst(objects: object[]): number {
  return objects.filter((object) => !haveSameMap(object, objects[0])).length;
}
