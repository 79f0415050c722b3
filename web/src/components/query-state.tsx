import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { ProblemMessage } from './problem-message';

interface QueryStateProps<T> {
  query: Pick<UseQueryResult<T>, 'data' | 'error' | 'isPending' | 'refetch'>;
  /** What is loading, in words ("Loading agents…"). */
  loading: string;
  /** When the data counts as empty, the empty state: say what to do next. */
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}

/** The loading, error, empty and loaded states of one query, the same way on every page. */
export function QueryState<T>({ query, loading, isEmpty, empty, children }: QueryStateProps<T>) {
  if (query.isPending) {
    return (
      <p className="loading" role="status">
        {loading}
      </p>
    );
  }
  if (query.error) return <ProblemMessage error={query.error} retry={() => void query.refetch()} />;
  const value = query.data as T;
  if (isEmpty?.(value)) return <div className="empty">{empty}</div>;
  return <>{children(value)}</>;
}
