/**
 * Stands in for `emitter-listener` inside function bundles (an esbuild alias, see ./aliases.ts).
 * cls-hooked, the X-Ray SDK's context, requires it at load for one method, `Namespace#bindEmitter`,
 * which only the SDK's HTTP-server middlewares call, never its Lambda mode; it would bring shimmer
 * along, both evaluated at every cold start for nothing.
 */
export default function wrapEmitter(): never {
  throw new Error('emitter-listener is not bundled into functions (lib/bundling/emitter-listener-absent.ts): nothing on Lambda binds an event emitter to an X-Ray context');
}
