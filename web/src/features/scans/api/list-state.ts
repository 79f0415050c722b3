import type { UseQueryResult } from '@tanstack/react-query';

/** A paged list (`usePagedList`) as the one query `QueryState` shows: its loaded items as the data. */
export function listState<T>(list: { items: T[]; error: Error | null; isPending: boolean; refetch: () => Promise<unknown> }, items: T[] = list.items) {
  return { data: items, error: list.error, isPending: list.isPending, refetch: list.refetch as unknown as UseQueryResult<T[]>['refetch'] };
}
