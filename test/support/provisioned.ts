import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { provision, type Provisioned } from '#lib/local/provision';

/** A fresh table and queue set in the shared engines, with the handlers' environment set for it. */
export async function provisionForTest(label: string): Promise<Provisioned> {
  const name = `t-${label}-${randomBytes(4).toString('hex')}`;
  const provisioned = await provision(name, inject('engines'));
  Object.assign(process.env, provisioned.environment);
  return provisioned;
}

export function uniqueTenant(label = 'tenant'): string {
  return `${label}-${randomBytes(5).toString('hex')}`;
}
