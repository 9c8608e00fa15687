/**
 * `work` over `items`, at most `bound` at a time, the results in the items' order (the confirmation
 * watcher's looks, the overview's balance batches). A failure rejects at once; the other workers
 * go on with the items left, their results dropped: callers whose work may fail catch inside it.
 */
export async function mapBounded<T, R>(items: readonly T[], bound: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(bound, items.length) }, worker));
  return results;
}
