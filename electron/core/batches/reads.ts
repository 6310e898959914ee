/**
 * The review's fresh reads, at most `limit` strategies at once. One function, so the review
 * takes the book's per-profile read queue (429s honoured, cancel) by changing only this one.
 */
export async function freshReads<T, R>(
  items: readonly T[],
  limit: number,
  read: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await read(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
