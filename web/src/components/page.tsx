import { useEffect, useRef, type ReactNode } from 'react';
import { useLocation, useNavigationType } from 'react-router';

/**
 * The path whose heading last had its turn. Only a page a person opened with a link or a button
 * (a PUSH) takes focus: the first page of a visit, a redirect (sign-in's return, REPLACE) and a
 * page mounting again on the same path leave focus at the document's start or where the person
 * put it, so Tab reaches the skip link first.
 */
let settledPath: string | undefined;

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
  const { pathname } = useLocation();
  const navigationType = useNavigationType();
  useEffect(() => {
    document.title = `${title} · Gatehouse`;
  }, [title]);
  useEffect(() => {
    if (settledPath === pathname) return;
    settledPath = pathname;
    if (navigationType === 'PUSH') heading.current?.focus({ preventScroll: true });
  }, [pathname, navigationType]);
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
