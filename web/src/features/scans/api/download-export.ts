import { api } from '../../../api/client';
import { attachmentName } from '../lib/scan-progress';

export type ExportFormat = 'json' | 'sarif' | 'csv' | 'pdf';

/** Every format GET /scans/{id}/export offers, with the words on its button. */
export const EXPORT_FORMATS: { format: ExportFormat; label: string }[] = [
  { format: 'json', label: 'JSON' },
  { format: 'sarif', label: 'SARIF' },
  { format: 'csv', label: 'CSV' },
  { format: 'pdf', label: 'PDF' },
];

/**
 * Fetches the scan's report with the person's token (a plain link could not send it) and saves
 * it under the name the API gives it.
 */
export async function downloadExport(scanId: string, format: ExportFormat): Promise<string> {
  const { data: blob, response } = await api().GET('/scans/{scan_id}/export', { params: { path: { scan_id: scanId }, query: { format } }, parseAs: 'blob' });
  if (!blob) throw new Error('The export answered without a file.');
  const name = attachmentName(response.headers.get('content-disposition'), `scan-${scanId}.${format}`);
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return name;
}
