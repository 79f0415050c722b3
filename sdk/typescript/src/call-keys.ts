/**
 * The Idempotency-Keys of one run: its lease id and the call's number within the run. Each call
 * takes one and keeps it across its retries, so a retry whose first answer was lost creates
 * nothing twice, while the next call (a new number) is never mistaken for it.
 */
export function callKeys(leaseId: string): () => string {
  let sequence = 0;
  return () => `${leaseId}:${++sequence}`;
}
