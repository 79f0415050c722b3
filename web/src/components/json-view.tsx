/** Any JSON value, indented, in a scrollable block with a name for screen readers. */
export function JsonView({ value, label = 'JSON' }: { value: unknown; label?: string }) {
  return (
    <pre className="json-view" tabIndex={0} aria-label={label}>
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}
