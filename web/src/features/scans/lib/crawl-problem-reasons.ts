/** What each reason means to a person reading the scan (docs/scans.md lists them). */
const REASONS: Record<string, string> = {
  timeout: 'did not answer in time',
  unreachable: 'could not be reached',
  blocked_url: 'refused by the scan’s network guard',
  not_html: 'not an HTML page',
  too_large: 'larger than the page size limit (audited cut)',
  redirect_off_origin: 'redirects to another site',
  too_many_redirects: 'redirects too many times',
  bad_redirect: 'redirects to an invalid address',
  robots_disallowed: 'disallowed by robots.txt',
  render_timeout: 'took too long to render in the browser',
  page_crashed: 'crashed the browser',
  render_failed: 'could not be rendered',
  scan_time_exhausted: 'not reached before the scan’s time ran out',
  blocked_subresource: 'requested by a page and refused by the network guard',
};

export function reasonText(reason: string): string {
  if (REASONS[reason]) return REASONS[reason];
  const status = /^http_(\d{3})$/.exec(reason);
  return status ? `answered HTTP ${status[1]}` : reason.replace(/_/g, ' ');
}
