import { Navigate, NavLink, Outlet, useLocation } from 'react-router';
import { useMe } from '../api/me';
import { INVITEE_LINKS, NAV_LINKS } from './nav-links';
import { SignedInAs } from './signed-in-as';
import { RequireSession } from '../auth/require-session';

/** The shell around every signed-in page: skip link, header, navigation, main landmark. */
export function Layout() {
  return (
    <RequireSession>
      <Shell />
    </RequireSession>
  );
}

/** A person of no tenant yet (`invitee`) has their invitations only: every other page sends them there. */
function Shell() {
  const role = useMe().data?.role;
  const { pathname } = useLocation();
  const invitee = role === 'invitee';
  if (invitee && pathname !== '/invitations') return <Navigate to="/invitations" replace />;
  const links = invitee ? INVITEE_LINKS : NAV_LINKS;
  return (
    <>
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
          {links.map((link) => (
            <li key={link.to}>
              <NavLink to={link.to}>{link.label}</NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}
