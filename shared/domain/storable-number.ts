/**
 * Numbers a client may send in free-form JSON (task input, scan metadata, a modified action) but
 * the service cannot keep as sent. DynamoDB stores numbers of up to 38 significant digits with a
 * magnitude from 1e-130 to just under 1e126; the document client refuses any number beyond
 * Number.MAX_SAFE_INTEGER; and JSON.parse has already rounded a larger integer (9007199254740993
 * arrives as ...992), so what would be stored is not what the client sent. Infinity is what
 * JSON.parse makes of 1e309.
 */
export const SMALLEST_STORABLE_MAGNITUDE = 1e-130;

export const UNSTORABLE_NUMBER_MESSAGE =
  'is a number the service cannot store exactly: integers must lie within ±9007199254740991 and other numbers must be 0 or at least 1e-130 in magnitude; send it as a string instead';

/** True for a number that is stored and read back exactly as the client sent it (after JSON.parse). */
export function isStorableNumber(value: number): boolean {
  if (!Number.isFinite(value)) return false;
  const magnitude = Math.abs(value);
  return magnitude <= Number.MAX_SAFE_INTEGER && (magnitude === 0 || magnitude >= SMALLEST_STORABLE_MAGNITUDE);
}

/** Where an unstorable number sits, as the keys and indexes leading to it. */
export type JsonPath = (string | number)[];

/** The paths of every unstorable number in a parsed JSON value, in document order; empty when there are none. */
export function unstorableNumberPaths(value: unknown): JsonPath[] {
  const found: JsonPath[] = [];
  const visit = (node: unknown, path: JsonPath): void => {
    if (typeof node === 'number') {
      if (!isStorableNumber(node)) found.push(path);
    } else if (Array.isArray(node)) {
      node.forEach((item, index) => visit(item, [...path, index]));
    } else if (node !== null && typeof node === 'object') {
      for (const [key, child] of Object.entries(node)) visit(child, [...path, key]);
    }
  };
  visit(value, []);
  return found;
}

/** A copy of `value` with null in place of each unstorable number (the value itself when there is none). */
export function withUnstorableNumbersAsNull<T>(value: T): T {
  if (typeof value === 'number') return (isStorableNumber(value) ? value : null) as T;
  if (Array.isArray(value)) return value.map(withUnstorableNumbersAsNull) as T;
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, withUnstorableNumbersAsNull(child)])) as T;
  return value;
}
