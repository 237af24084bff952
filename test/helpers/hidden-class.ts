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

/**
 * Skips the test when this process cannot tell hidden classes apart: when even two objects built by the same stores,
 * with the keys of `like`, get different maps. That happens in some runs of the whole suite (V8 keeps a bounded list
 * of map transitions, and the suite builds objects with thousands of different keys); then every object has a map of
 * its own, whatever code built it.
 */
export function skipUnlessMapsComparable(test: Mocha.Context, like: object): void {
  const build = (): object => {
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(like)) copy[key] = (like as Record<string, unknown>)[key];
    return copy;
  };
  if (!haveSameMap(build(), build())) test.skip();
}
