import { UsageError } from './errors.ts';

export interface Connection {
  apiUrl: string;
  apiKey: string;
  dashboardUrl?: string;
}

type Env = Record<string, string | undefined>;

/** Where the API is and the key to call it with, from the environment; a UsageError names every variable missing or wrong. */
export function connectionFrom(env: Env): Connection {
  const apiUrl = env.GATEHOUSE_API_URL?.trim() ?? '';
  // Secrets pasted into a CI's settings often end with a newline.
  const apiKey = env.GATEHOUSE_API_KEY?.trim() ?? '';
  const dashboardUrl = env.GATEHOUSE_DASHBOARD_URL?.trim() || undefined;
  const problems = [
    apiUrl === '' && 'GATEHOUSE_API_URL is not set (the API base URL, e.g. https://api.example.com/v1)',
    apiUrl !== '' && !isHttpUrl(apiUrl) && 'GATEHOUSE_API_URL is not an http(s) URL',
    apiKey === '' && 'GATEHOUSE_API_KEY is not set (an API key of role operator or admin)',
    dashboardUrl !== undefined && !isHttpUrl(dashboardUrl) && 'GATEHOUSE_DASHBOARD_URL is not an http(s) URL',
  ].filter((problem): problem is string => typeof problem === 'string');
  if (problems.length > 0) throw new UsageError(`${problems.join('; ')}.`);
  return { apiUrl, apiKey, ...(dashboardUrl ? { dashboardUrl } : {}) };
}

function isHttpUrl(value: string): boolean {
  return URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);
}
