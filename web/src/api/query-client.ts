import { QueryClient } from '@tanstack/react-query';
import { ProblemError } from './problem-error';

/** One cache for all server state; client errors (4xx) are answers, not blips, so never retried. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        retry: (count, error) => !(error instanceof ProblemError && error.status < 500) && count < 2,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}
