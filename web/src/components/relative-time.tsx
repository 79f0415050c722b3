import { useEffect, useState } from 'react';
import { fullTime, relativeTime } from '../lib/relative-time';

/** "5 minutes ago", kept current; the full time in the viewer's zone on hover and for machines. */
export function RelativeTime({ value }: { value: string | null | undefined }) {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), 30_000);
    return () => window.clearInterval(timer);
  }, []);
  if (!value) return <span>—</span>;
  const then = new Date(value);
  if (Number.isNaN(then.getTime())) return <span>{value}</span>;
  return (
    <time dateTime={value} title={fullTime(then)}>
      {relativeTime(then, now)}
    </time>
  );
}
