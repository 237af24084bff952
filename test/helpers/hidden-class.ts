import v8 from 'node:v8';

v8.setFlagsFromString('--allow-natives-syntax');
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

/** Objects left out at the start: V8 settles field representations and the call site's inline cache on them. */
const WARM_UP = 5;

/**
 * How many of `objects`, after the warm-up ones, have a hidden class (V8 map) other than the last one's. Code that
 * copies with `{ ...source, newKey }` gives each copy a map of its own on Node 20 once its call site is warm, so
 * pass ≥ 15 objects made by the same code.
 */
export function extraHiddenClasses(objects: object[]): number {
  const last = objects[objects.length - 1];
  return objects.slice(WARM_UP).filter((object) => !haveSameMap(object, last)).length;
}
