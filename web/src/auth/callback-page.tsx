import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { completeSignIn, signIn } from './session';

/** /callback: finishes the code + PKCE exchange and goes back to where sign-in started. */
export function CallbackPage() {
  const navigate = useNavigate();
  const [error, setError] = useState<string>();
  const started = useRef(false);
  useEffect(() => {
    // The code is single-use: React's development double effects must not spend it twice.
    if (started.current) return;
    started.current = true;
    completeSignIn()
      .then((returnTo) => navigate(returnTo, { replace: true }))
      .catch((failure: unknown) => setError(failure instanceof Error ? failure.message : String(failure)));
  }, [navigate]);
  return (
    <main id="main" className="centered">
      <h1>Signing in</h1>
      {error ? (
        <div className="problem" role="alert">
          <p>Sign-in did not complete: {error}</p>
          <button type="button" className="button primary" onClick={() => void signIn('/')}>
            Sign in again
          </button>
        </div>
      ) : (
        <p role="status">Completing sign-in…</p>
      )}
    </main>
  );
}
