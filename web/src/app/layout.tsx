import { NavLink, Outlet } from 'react-router';
import { NAV_LINKS } from './nav-links';
import { SignedInAs } from './signed-in-as';
import { RequireSession } from '../auth/require-session';

/** The shell around every signed-in page: skip link, header, navigation, main landmark. */
export function Layout() {
  return (
    <RequireSession>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header">
        <NavLink to="/" className="brand">
          Gatehouse
        </NavLink>
        <SignedInAs />
      </header>
      <nav className="site-nav" aria-label="Main">
        <ul>
          {NAV_LINKS.map((link) => (
            <li key={link.to}>
              <NavLink to={link.to}>{link.label}</NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </RequireSession>
  );
}
