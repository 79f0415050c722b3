import { useInfiniteQuery, type QueryKey } from '@tanstack/react-query';

/** One page of any list route: its items under `key`, and `next_cursor`. */
type PageOf<K extends string, T> = { [P in K]: T[] } & { next_cursor: string | null };

/**
 * A cursor-paged list (`limit`, `cursor` → `next_cursor`) as one infinite query: `items` are all
 * pages loaded so far, in the API's order; `<LoadMore query={...} />` fetches the next.
 */
export function usePagedList<K extends string, T>(queryKey: QueryKey, key: K, fetchPage: (cursor: string | undefined) => Promise<PageOf<K, T>>) {
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const items: T[] = query.data?.pages.flatMap((page) => page[key]) ?? [];
  return { ...query, items };
}
