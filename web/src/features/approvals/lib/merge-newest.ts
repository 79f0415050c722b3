/** One newest-first list as loaded so far: its items and whether the API has more after them. */
export interface SortedSource<T> {
  items: T[];
  hasMore: boolean;
}

export interface MergedList<T> {
  /** Every loaded item that no unloaded one can sort above, newest first. */
  items: T[];
  /** The sources whose next page moves the cut: load these for more. */
  loadNext: number[];
}

/**
 * Merges newest-first paged lists (approved and denied approvals) into one newest-first list.
 * An item older than the last loaded item of a source with more pages is held back: that
 * source's next page could hold something newer than it, and the list must not reorder later.
 */
export function mergeNewestFirst<T>(sources: SortedSource<T>[], time: (item: T) => string): MergedList<T> {
  const at = (item: T) => Date.parse(time(item));
  let cut = Number.NEGATIVE_INFINITY;
  const cutters: number[] = [];
  sources.forEach((source, index) => {
    if (!source.hasMore) return;
    const last = source.items.at(-1);
    const boundary = last === undefined ? Number.POSITIVE_INFINITY : at(last);
    if (boundary > cut) {
      cut = boundary;
      cutters.length = 0;
    }
    if (boundary === cut) cutters.push(index);
  });
  const items = sources
    .flatMap((source) => source.items)
    .filter((item) => at(item) >= cut)
    .sort((a, b) => at(b) - at(a));
  return { items, loadNext: cutters };
}
