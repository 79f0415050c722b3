import { useInfiniteQuery, type QueryKey } from '@tanstack/react-query';

/** One page of a list route, its items taken from the key the route names them by. */
export interface ListPage<T> {
  items: T[];
  next_cursor: string | null;
}

/**
 * A cursor-paged list (`limit`, `cursor` → `next_cursor`) as one infinite query: `items` are all
 * pages loaded so far, in the API's order; `<LoadMore query={...} />` fetches the next page.
 * `fetchPage` answers `{ items: page.tasks, next_cursor: page.next_cursor }`.
 */
export function usePagedList<T>(queryKey: QueryKey, fetchPage: (cursor: string | undefined) => Promise<ListPage<T>>) {
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const items: T[] = query.data?.pages.flatMap((page) => page.items) ?? [];
  return { ...query, items };
}
