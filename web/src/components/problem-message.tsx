import { ProblemError } from '../api/problem-error';

/** An error in words: the problem's title and detail, and what can be done about it. */
export function ProblemMessage({ error, retry }: { error: unknown; retry?: () => void }) {
  const message = error instanceof Error ? error.message : 'Something went wrong.';
  const hint = error instanceof ProblemError && error.status === 403 ? 'Ask an admin of your tenant for a role that allows this.' : error instanceof ProblemError && error.status === 404 ? 'It may have been deleted, or it belongs to another tenant.' : '';
  return (
    <div className="problem" role="alert">
      <p>{message}</p>
      {hint && <p className="muted">{hint}</p>}
      {retry && (
        <button type="button" className="button" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}
