/** Items run at once: enough to overlap round trips without throttling a small table. */
const CONCURRENCY = 8;

/** Runs `run` on every item, at most CONCURRENCY at a time; resolves when all have finished. */
export async function forEachLimited<T>(items: T[], run: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await run(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
}
