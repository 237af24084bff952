/** Records the length of every text JSON.parse is given until `stop()`; JSON.parse works as before meanwhile. */
export function watchJsonParse(): { lengths: number[]; stop(): void } {
  const lengths: number[] = [];
  const original = JSON.parse;
  JSON.parse = ((text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
    lengths.push(text.length);
    return original(text, reviver);
  }) as typeof JSON.parse;
  return {
    lengths,
    stop() {
      JSON.parse = original;
    },
  };
}
