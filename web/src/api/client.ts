import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './schema';
import { problemFromResponse } from './problem-error';
import { accessToken, signIn } from '../auth/session';

export type ApiClient = ReturnType<typeof createClient<paths>>;

let client: ApiClient | undefined;

/** Adds the person's access token to every call, exactly like an API key would be sent. */
const bearer: Middleware = {
  async onRequest({ request }) {
    const token = await accessToken();
    if (token) request.headers.set('Authorization', `Bearer ${token}`);
    return request;
  },
  async onResponse({ response }) {
    if (response.ok) return response;
    // An expired or revoked session: sign in again and come back here.
    if (response.status === 401) void signIn();
    throw await problemFromResponse(response);
  },
};

/** Creates the app's one typed API client for the configured base URL (`/v1` on the same origin). */
export function configureApi(baseUrl: string): void {
  client = createClient<paths>({ baseUrl: baseUrl.replace(/\/$/, '') });
  client.use(bearer);
}

/** The typed client: every call of the app to the API goes through it. */
export function api(): ApiClient {
  if (!client) throw new Error('The API client is not configured yet.');
  return client;
}

/**
 * The body of a successful call. Failures never get here: the middleware throws them as
 * ProblemError, so hooks can `return data(await api().GET(...))`.
 */
export function data<T>(result: { data?: T; error?: unknown }): T {
  if (result.data === undefined) throw result.error instanceof Error ? result.error : new Error('The API answered without a body.');
  return result.data;
}
