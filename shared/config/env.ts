/**
 * Reads configuration from the environment. A missing variable is a deployment error, so it
 * fails loudly at first use instead of turning into `undefined` deep inside a request.
 */
export function getStringFromEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value.trim() === '') {
    throw new Error(`Environment variable ${name} is required but not set.`);
  }
  return value;
}

export function getOptionalStringFromEnv(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value.trim() === '' ? undefined : value;
}

export function getIntegerFromEnv(name: string, fallback: number): number {
  const raw = getOptionalStringFromEnv(name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value)) throw new Error(`Environment variable ${name} must be an integer, got '${raw}'.`);
  return value;
}

/** Memoises a factory so that a client is created once per process, on first use. */
export function once<T>(factory: () => T): () => T {
  let value: T | undefined;
  let made = false;
  return () => {
    if (!made) {
      value = factory();
      made = true;
    }
    return value as T;
  };
}
