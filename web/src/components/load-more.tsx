import type { UseInfiniteQueryResult } from '@tanstack/react-query';

/** "Load more" for a cursor-paged list (`next_cursor`); says so when there is nothing more. */
export function LoadMore({ query }: { query: Pick<UseInfiniteQueryResult, 'hasNextPage' | 'isFetchingNextPage' | 'fetchNextPage'> }) {
  if (!query.hasNextPage) return null;
  return (
    <div className="load-more">
      <button type="button" className="button" disabled={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
        {query.isFetchingNextPage ? 'Loading…' : 'Load more'}
      </button>
    </div>
  );
}
