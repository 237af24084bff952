/** What a promise rejected with; fails the test when it resolves instead. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

/** Runs `step` with 0, 1, 2… until it throws: how many steps succeeded, and what the failing one threw. */
export function stepsUntilThrown(step: (index: number) => void, most = 1000): { steps: number; thrown: unknown } {
  for (let index = 0; index < most; index += 1) {
    try {
      step(index);
    } catch (thrown) {
      return { steps: index, thrown };
    }
  }
  throw new Error(`expected a step to throw within ${most}`);
}
