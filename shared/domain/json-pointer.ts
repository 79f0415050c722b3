/**
 * RFC 6901 JSON Pointers: what an event trigger's `input_mapping` points with. A pointer is ""
 * (the whole document) or a sequence of `/`-prefixed reference tokens, where `~1` stands for `/`
 * and `~0` for `~` (decoded in that order: `~01` is `~1`, not `/`).
 */

/** Why `pointer` is not an RFC 6901 JSON Pointer, or undefined when it is one. */
export function pointerProblem(pointer: string): string | undefined {
  if (pointer === '') return undefined;
  if (!pointer.startsWith('/')) return 'must be a JSON Pointer (RFC 6901): empty, or starting with "/"';
  if (/~(?![01])/.test(pointer)) return 'has "~" not followed by 0 or 1 (RFC 6901 escapes "~" as ~0 and "/" as ~1)';
  return undefined;
}

/** The reference tokens of a valid pointer, unescaped. */
export function pointerTokens(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * The value `pointer` refers to in `document`, or undefined when it refers to nothing. Array
 * indexes are decimal without leading zeros ("-", the index past the end, refers to nothing);
 * only own properties count, so `/__proto__` or `/constructor` find nothing.
 */
export function resolvePointer(document: unknown, pointer: string): unknown {
  let current: unknown = document;
  for (const token of pointerTokens(pointer)) {
    if (Array.isArray(current)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token)) return undefined;
      current = current[Number(token)];
    } else if (current !== null && typeof current === 'object') {
      if (!Object.hasOwn(current, token)) return undefined;
      current = (current as Record<string, unknown>)[token];
    } else {
      return undefined;
    }
    if (current === undefined) return undefined;
  }
  return current;
}
