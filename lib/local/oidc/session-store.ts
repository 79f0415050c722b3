import type { Adapter, AdapterPayload } from 'oidc-provider';

interface Entry {
  payload: AdapterPayload;
  expiresAt: number;
}

/**
 * Where the local provider keeps its sessions, interactions, codes and grants: this process's
 * memory, on purpose (a restart signs people out of the provider, not out of the dashboard: the
 * API's tokens are JWTs checked by signature). The library's own memory adapter does the same
 * but warns at every start that it is for development; this one says so here instead.
 */
export function memorySessionStore(): (model: string) => Adapter {
  const entries = new Map<string, Entry>();
  const live = (key: string) => {
    const entry = entries.get(key);
    if (entry && entry.expiresAt <= Date.now()) entries.delete(key);
    return entry && entry.expiresAt > Date.now() ? entry.payload : undefined;
  };
  return (model) => ({
    async upsert(id, payload, expiresIn) {
      // Expired entries are dropped as they are met, and here, so the map does not grow forever.
      for (const [key, entry] of entries) if (entry.expiresAt <= Date.now()) entries.delete(key);
      entries.set(`${model}:${id}`, { payload, expiresAt: expiresIn === undefined ? Infinity : Date.now() + expiresIn * 1000 });
    },
    async find(id) {
      return live(`${model}:${id}`);
    },
    async findByUid(uid) {
      for (const [key, entry] of entries) if (key.startsWith(`${model}:`) && entry.payload.uid === uid) return live(key);
      return undefined;
    },
    async findByUserCode(userCode) {
      for (const [key, entry] of entries) if (key.startsWith(`${model}:`) && entry.payload.userCode === userCode) return live(key);
      return undefined;
    },
    async consume(id) {
      const payload = live(`${model}:${id}`);
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    },
    async destroy(id) {
      entries.delete(`${model}:${id}`);
    },
    async revokeByGrantId(grantId) {
      for (const [key, entry] of entries) if (entry.payload.grantId === grantId) entries.delete(key);
    },
  });
}
