import { SECURITY_HEADERS, jsonResponse } from '#shared/http/response';
import { header } from '#shared/http/request-context';
import { routeHandler } from '#shared/http/route-handler';
import { monthUsage, usageCsv } from '#shared/services/usage';
import { usageQuery } from '#functions/usage/schemas';

/** True when the client asked for CSV in its Accept header (and not for JSON before it). */
function acceptsCsv(accept: string | undefined): boolean {
  if (!accept) return false;
  const types = accept.split(',').map((part) => part.split(';')[0].trim().toLowerCase());
  const csv = types.indexOf('text/csv');
  const json = types.indexOf('application/json');
  return csv >= 0 && (json < 0 || csv < json);
}

/** GET /usage?month=YYYY-MM: the tenant's usage of a month; CSV by agent and task type on `format=csv` or `Accept: text/csv`. */
export const handler = routeHandler({ query: usageQuery }, async ({ tenantId, query, event }) => {
  const usage = await monthUsage(tenantId, query.month);
  const accept = header(event, 'accept');
  if (query.format === 'csv' || (query.format === undefined && acceptsCsv(accept))) {
    return {
      statusCode: 200,
      headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="usage-${usage.month}.csv"`, ...SECURITY_HEADERS },
      body: usageCsv(usage),
    };
  }
  return jsonResponse(200, usage);
});
