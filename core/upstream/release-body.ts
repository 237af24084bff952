/**
 * Request bodies at least this large are handed back to the allocator as soon as they are done with. Smaller ones are
 * left to the GC: what they can hold until a full collection is small.
 */
export const RELEASE_MIN_BYTES = 64 * 1024;

/** Memory a socket may still be reading from (a body's ArrayBuffer), with how many sends are using it. */
const sending = new WeakMap<ArrayBufferLike, number>();

/** The upstream client marks a body while a request writes it, until every byte has left (or the request died). */
export function markSending(body: ArrayBufferView): () => void {
  // Keyed on the memory, not the view: any view a socket writes keeps every other view of it from being released.
  let memory: ArrayBufferLike | undefined = body.buffer;
  sending.set(memory, (sending.get(memory) ?? 0) + 1);
  return () => {
    if (memory === undefined) return;
    const left = (sending.get(memory) ?? 1) - 1;
    if (left > 0) sending.set(memory, left);
    else sending.delete(memory);
    // Dropped: the request's listeners live as long as its answer streams and must not keep the bytes.
    memory = undefined;
  };
}

/**
 * Frees a large request body's memory now, instead of at V8's next full collection. A body lives as long as its
 * upstream call, long enough for its Buffer object to reach the old generation; its bytes (malloc'd, outside V8's
 * heap) then stay allocated until a full GC, and with 200 KB bodies glibc's heap grew by 30–50 MB that way
 * (measured). Moving the memory to a clone of the ArrayBuffer that is dropped at once lets the next minor GC free it.
 *
 * Afterwards the Buffer reads as empty. Only a Buffer that owns its whole ArrayBuffer is released (not a slice of
 * Node's pool or of another Buffer), and not while a socket may still be writing it: that write reads the memory
 * directly, so a body still being sent is left to the GC. Answers whether the body was released.
 */
export function releaseBody(body: Buffer | null | undefined): boolean {
  if (body == null || body.length < RELEASE_MIN_BYTES) return false;
  const memory = body.buffer;
  if (sending.has(memory)) return false;
  if (body.byteOffset !== 0 || memory.byteLength !== body.length || !(memory instanceof ArrayBuffer)) return false;
  try {
    structuredClone(memory, { transfer: [memory] });
    return true;
  } catch {
    // Not transferable (Node marks some of its own buffers so): the GC frees it as before.
    return false;
  }
}
