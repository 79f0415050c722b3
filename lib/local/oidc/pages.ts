/**
 * The local provider's own pages, rendered on the server: plain HTML with labelled fields, one
 * heading, a main landmark, and no script at all (the Content-Security-Policy forbids any).
 */

/** The Content-Security-Policy of every page here: no scripts, forms post only to this origin. */
export const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

const STYLE = `body{font-family:system-ui,sans-serif;margin:0;padding:2rem 1rem;background:#f5f6f8;color:#1b1d21}
main{max-width:22rem;margin:0 auto;background:#fff;padding:1.5rem;border-radius:.5rem;box-shadow:0 1px 3px rgba(0,0,0,.15)}
h1{font-size:1.4rem;margin:0 0 1rem}label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input{width:100%;box-sizing:border-box;padding:.5rem;font-size:1rem;border:1px solid #6b7280;border-radius:.25rem}
button{margin-top:1.25rem;width:100%;padding:.6rem;font-size:1rem;border:0;border-radius:.25rem;background:#1d4ed8;color:#fff;cursor:pointer}
button.secondary{background:#e5e7eb;color:#1b1d21}button:focus-visible,input:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.error{color:#b91c1c;font-weight:600;margin:0 0 .5rem}`;

/** A whole page around `body`. */
export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main>${body}</main></body>
</html>`;
}

/** The sign-in form; after a failed attempt, the error in words and the email kept. */
export function signInPage(action: string, options: { email?: string; error?: string } = {}): string {
  const error = options.error ? `<p class="error" id="sign-in-error" role="alert">${escapeHtml(options.error)}</p>` : '';
  const described = options.error ? ' aria-describedby="sign-in-error" aria-invalid="true"' : '';
  return page(
    'Sign in to Gatehouse',
    `<h1>Sign in to Gatehouse</h1>${error}
<form method="post" action="${escapeHtml(action)}">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(options.email ?? '')}"${described}>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required${described}>
<button type="submit">Sign in</button>
</form>`,
  );
}

/** Asks before signing out; `form` is the provider's hidden form (id `op.logoutForm`). */
export function signOutPage(form: string): string {
  return page(
    'Sign out of Gatehouse',
    `<h1>Sign out of Gatehouse?</h1>${form}
<button type="submit" form="op.logoutForm" name="logout" value="yes">Sign out</button>
<button type="submit" form="op.logoutForm" class="secondary">Stay signed in</button>`,
  );
}

/** An error of the sign-in flow, in words. */
export function errorPage(message: string): string {
  return page('Sign-in failed', `<h1>Sign-in failed</h1><p>${escapeHtml(message)}</p>`);
}
