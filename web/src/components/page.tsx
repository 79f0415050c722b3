import { useEffect, useRef, type ReactNode } from 'react';

interface PageProps {
  title: string;
  /** Buttons beside the title (already filtered by role). */
  actions?: ReactNode;
  /** A line under the title saying what the page is for. */
  intro?: ReactNode;
  children: ReactNode;
}

/**
 * Every page's frame: the document title, one h1 that takes focus when the page opens (so a
 * screen reader announces where a link led), actions beside it, then the content.
 */
export function Page({ title, actions, intro, children }: PageProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Gatehouse`;
    heading.current?.focus({ preventScroll: true });
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
