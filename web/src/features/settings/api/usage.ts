import { useMutation, useQuery } from '@tanstack/react-query';
import { api, data } from '../../../api/client';
import type { components } from '../../../api/schema';

// The route answers JSON or CSV; without `format=csv` it is this JSON.
export type Usage = components['schemas']['Usage'] & { tasks_cancelled?: number };

/** GET /usage?month= (admin: render only for admins). */
export function useUsage(month: string) {
  return useQuery({ queryKey: ['usage', month], queryFn: async () => data(await api().GET('/usage', { params: { query: { month } } })) as Usage });
}

/** GET /usage?format=csv, saved as the route names it (`usage-<month>.csv`). */
export function useDownloadUsageCsv() {
  return useMutation({
    mutationFn: async (month: string) => {
      const { data: blob } = await api().GET('/usage', { params: { query: { month, format: 'csv' } }, parseAs: 'blob' });
      if (!blob) throw new Error('The usage CSV came back empty.');
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = `usage-${month}.csv`;
      document.body.append(link);
      link.click();
      link.remove();
      window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
    },
  });
}
