import { useQuery } from '@tanstack/react-query';
import { loadRuntimeConfig } from '../../../app/runtime-config';

/**
 * The API's absolute base URL (`https://…/v1`), for addresses people paste elsewhere (Slack's app
 * settings): /config.json's `apiBaseUrl`, which may be `/v1` on the dashboard's own origin.
 */
export function useApiBaseUrl() {
  return useQuery({
    queryKey: ['runtime-config'],
    queryFn: loadRuntimeConfig,
    staleTime: Number.POSITIVE_INFINITY,
    select: (config) => new URL(config.apiBaseUrl, window.location.href).toString().replace(/\/+$/, ''),
  });
}
