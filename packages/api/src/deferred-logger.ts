import type { Logger } from "@qc/core";

/**
 * A child logger made on first use. pino's `child()` serialises and redacts its bindings at once,
 * which cost the authenticated read path two child loggers per request (request id, then tenant id)
 * and their garbage, ~10 % of its CPU (docs/performance/request-path.md), while most requests never log. Once
 * anything touches it, this is that child: same bindings, same output.
 */
export function deferredChild(parent: Logger, bindings: Record<string, unknown>): Logger {
  let child: Logger | undefined;
  const logger = () => (child ??= parent.child(bindings));
  return new Proxy(parent, {
    get(_parent, property) {
      const target = logger();
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
    set: (_parent, property, value) => Reflect.set(logger(), property, value),
    has: (_parent, property) => Reflect.has(logger(), property),
  });
}
