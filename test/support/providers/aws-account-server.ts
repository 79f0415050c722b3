import { createServer } from 'node:http';
import { listenOnLoopback } from './loopback-listen';
import type { RecordedAnswer } from '../preflight-answers';

/** The services the preflight reads, and the one request of each it makes. */
const ROUTES = {
  lambda: { method: 'GET', path: '/2016-08-19/account-settings' },
  sesv2: { method: 'GET', path: '/v2/email/account' },
  cloudfront: { method: 'GET', path: '/2020-05-31/distribution' },
} as const;
export type AccountService = keyof typeof ROUTES;

const CLOUDFRONT_NAMESPACE = 'http://cloudfront.amazonaws.com/doc/2020-05-31/';
/** CloudFront's XML names each list's members: the one list the preflight reads holds DistributionSummary. */
const XML_MEMBERS: Record<string, string> = { Items: 'DistributionSummary' };

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function toXml(name: string, value: unknown): string {
  if (Array.isArray(value)) return `<${name}>${value.map((member) => toXml(XML_MEMBERS[name] ?? 'member', member)).join('')}</${name}>`;
  if (value !== null && typeof value === 'object') return `<${name}>${Object.entries(value).map(([key, inner]) => toXml(key, inner)).join('')}</${name}>`;
  return `<${name}>${escapeXml(String(value))}</${name}>`;
}

/** A REST-XML body as CloudFront writes it: the root element carries the API's namespace. */
function cloudFrontXml(body: Record<string, unknown>): string {
  const [[root, value]] = Object.entries(body);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${toXml(root, value).replace(`<${root}>`, `<${root} xmlns="${CLOUDFRONT_NAMESPACE}">`)}`;
}

export interface AccountRequest {
  service: AccountService;
  method: string;
  url: string;
  /** The SigV4 credential scope's region and service (`us-east-1/cloudfront`). */
  signedFor: string;
}

/**
 * The three AWS APIs `npm run preflight` reads, on loopback, each replaying a recorded answer in its
 * own protocol: Lambda and SES v2 speak REST-JSON (errors named in `x-amzn-ErrorType`), CloudFront
 * REST-XML (errors in an `ErrorResponse` document). Any other request is a 404, as AWS answers an
 * unknown operation, so a call the preflight should not make fails the test.
 */
export async function startAwsAccountServer(answers: Record<AccountService, RecordedAnswer>) {
  const requests: AccountRequest[] = [];
  const state = { answers: { ...answers }, requests };
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const service = (Object.keys(ROUTES) as AccountService[]).find((name) => ROUTES[name].method === request.method && ROUTES[name].path === url.pathname);
      if (!service) {
        response.writeHead(404, { 'Content-Type': 'application/json', 'x-amzn-ErrorType': 'UnknownOperationException' });
        return response.end(JSON.stringify({ message: `No operation at ${request.method} ${url.pathname}` }));
      }
      const scope = /Credential=[^/]+\/\d{8}\/([^/]+)\/([^/]+)\/aws4_request/.exec(String(request.headers.authorization ?? ''));
      requests.push({ service, method: request.method ?? '', url: request.url ?? '', signedFor: scope ? `${scope[1]}/${scope[2]}` : 'unsigned' });
      const answer = state.answers[service];
      const headers = { 'x-amzn-RequestId': `req-${requests.length}` };
      if (service === 'cloudfront') {
        response.writeHead(answer.status, { ...headers, 'Content-Type': 'text/xml' });
        if (answer.error) {
          return response.end(cloudFrontXml({ ErrorResponse: { Error: { Type: 'Sender', Code: answer.error.code, Message: answer.error.message }, RequestId: headers['x-amzn-RequestId'] } }));
        }
        return response.end(cloudFrontXml(answer.body ?? {}));
      }
      if (answer.error) {
        response.writeHead(answer.status, { ...headers, 'Content-Type': 'application/json', 'x-amzn-ErrorType': answer.error.code });
        return response.end(JSON.stringify({ message: answer.error.message }));
      }
      response.writeHead(answer.status, { ...headers, 'Content-Type': 'application/json' });
      response.end(JSON.stringify(answer.body ?? {}));
    });
  });
  const { endpoint, close } = await listenOnLoopback(server);
  return { endpoint, state, close };
}
