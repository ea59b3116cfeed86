// A full collection before a measurement of memory. Needs global.gc: run
// node with --expose-gc.

/** process.memoryUsage() after full collections. */
export async function memoryAfterCollection(): Promise<NodeJS.MemoryUsage> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('global.gc is missing: run node with --expose-gc');
  // A turn of the event loop first: what finished requests (and an earlier
  // app's close) still hold is let go before the collection.
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  gc();
  return process.memoryUsage();
}
