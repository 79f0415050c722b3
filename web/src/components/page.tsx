import { useEffect, useRef, type ReactNode } from 'react';

/** The first page of a visit keeps focus at the document's start, so Tab reaches the skip link first. */
let firstPage = true;

interface PageProps {
  title: string;
  /** Buttons beside the title (already filtered by role). */
  actions?: ReactNode;
  /** A line under the title saying what the page is for. */
  intro?: ReactNode;
  children: ReactNode;
}

/**
 * Every page's frame: the document title, one h1 that takes focus when a link opens the page (so
 * a screen reader announces where it led), actions beside it, then the content.
 */
export function Page({ title, actions, intro, children }: PageProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Gatehouse`;
    if (firstPage) firstPage = false;
    else heading.current?.focus({ preventScroll: true });
  }, [title]);
  return (
    <>
      <div className="page-head">
        <h1 ref={heading} tabIndex={-1}>
          {title}
        </h1>
        {actions && <div className="actions">{actions}</div>}
      </div>
      {intro && <p className="muted intro">{intro}</p>}
      {children}
    </>
  );
}
