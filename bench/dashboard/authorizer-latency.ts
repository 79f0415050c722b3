import { performance } from 'node:perf_hooks';
import { summarize, type LatencySummary } from '../stats';

export interface AuthorizerLatency {
  requests: number;
  apiKey: LatencySummary;
  accessToken: LatencySummary;
  /** Median added by a person's token over an API key, per request. */
  addedP50Ms: number;
}

async function timeRequests(url: string, bearer: string, count: number): Promise<number[]> {
  const samples: number[] = [];
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    const response = await fetch(url, { headers: { Authorization: `Bearer ${bearer}` }, signal: AbortSignal.timeout(15_000) });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`);
    samples.push(performance.now() - started);
  }
  return samples;
}

/**
 * The same cheap route (GET /me) with an API key and with a signed-in person's access token, in
 * alternating rounds so that warm-up and machine noise fall on both alike. The runtime must run
 * with the authorizer cache off, so every request pays the authorizer.
 */
export async function measureAuthorizerLatency(apiBaseUrl: string, apiKey: string, accessToken: string, count: number): Promise<AuthorizerLatency> {
  const url = `${apiBaseUrl}/me`;
  await timeRequests(url, apiKey, 20);
  await timeRequests(url, accessToken, 20);
  const keySamples: number[] = [];
  const tokenSamples: number[] = [];
  const round = Math.max(1, Math.floor(count / 10));
  for (let done = 0; done < count; done += round) {
    keySamples.push(...(await timeRequests(url, apiKey, round)));
    tokenSamples.push(...(await timeRequests(url, accessToken, round)));
  }
  const apiKeySummary = summarize(keySamples);
  const tokenSummary = summarize(tokenSamples);
  return { requests: keySamples.length, apiKey: apiKeySummary, accessToken: tokenSummary, addedP50Ms: tokenSummary.p50 - apiKeySummary.p50 };
}
