import { useEffect, useState, type ReactNode } from 'react';
import { accessToken, signIn } from './session';

/** Shows its children to a signed-in person; sends anyone else to sign in, then back here. */
export function RequireSession({ children }: { children: ReactNode }) {
  const [state, setState] = useState<'checking' | 'signed-in' | 'redirecting'>('checking');
  useEffect(() => {
    let live = true;
    void accessToken().then((token) => {
      if (!live) return;
      if (token) return setState('signed-in');
      setState('redirecting');
      void signIn();
    });
    return () => {
      live = false;
    };
  }, []);
  if (state === 'signed-in') return <>{children}</>;
  return (
    <main id="main" className="centered">
      <p role="status">{state === 'checking' ? 'Checking your session…' : 'Taking you to sign in…'}</p>
    </main>
  );
}
