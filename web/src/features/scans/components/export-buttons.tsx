import { useState } from 'react';
import { ProblemMessage } from '../../../components/problem-message';
import { downloadExport, EXPORT_FORMATS, type ExportFormat } from '../api/download-export';

/** One `Download …` button per export format; each fetches the file with the token and saves it. */
export function ExportButtons({ scanId }: { scanId: string }) {
  const [busy, setBusy] = useState<ExportFormat>();
  const [saved, setSaved] = useState('');
  const [error, setError] = useState<unknown>();
  const download = async (format: ExportFormat) => {
    setBusy(format);
    setError(undefined);
    setSaved('');
    try {
      setSaved(`Saved ${await downloadExport(scanId, format)}.`);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(undefined);
    }
  };
  return (
    <section aria-labelledby="downloads-heading">
      <h2 id="downloads-heading">Downloads</h2>
      <div className="actions">
        {EXPORT_FORMATS.map(({ format, label }) => (
          <button type="button" className="button" key={format} disabled={busy !== undefined} onClick={() => void download(format)}>
            {busy === format ? `Preparing ${label}…` : `Download ${label}`}
          </button>
        ))}
      </div>
      <p role="status" className="field-hint">
        {saved}
      </p>
      {error !== undefined && <ProblemMessage error={error} />}
    </section>
  );
}
