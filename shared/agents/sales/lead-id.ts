import { createHash } from 'node:crypto';
import { normaliseDomain } from './lead-source';

/** Stable lead id derived from the domain, so every source and every run agree on it. */
export function leadIdFor(domain: string): string {
  return `lead_${createHash('sha256').update(normaliseDomain(domain)).digest('hex').slice(0, 16)}`;
}
