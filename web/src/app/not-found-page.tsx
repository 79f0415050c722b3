import { Link } from 'react-router';
import { Page } from '../components/page';

/** A path the dashboard does not have. */
export function NotFoundPage() {
  return (
    <Page title="Page not found">
      <p>
        There is no page at this address. Go to <Link to="/agents">Agents</Link>.
      </p>
    </Page>
  );
}
