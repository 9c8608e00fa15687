import type { Logger } from "@qc/core";

/**
 * The proxy's handler doubles as its state: the traps below are shared by every deferred logger
 * (a trap runs with its handler as `this`), so making one costs two objects, not a set of closures
 * (each of which tsx's keepNames would also name with a `defineProperty` per request).
 */
interface DeferredHandler extends ProxyHandler<Logger> {
  parent: Logger;
  bindings: Record<string, unknown>;
  child: Logger | undefined;
}

function logger(handler: DeferredHandler): Logger {
  return (handler.child ??= handler.parent.child(handler.bindings));
}

function get(this: DeferredHandler, _parent: Logger, property: string | symbol): unknown {
  const target = logger(this);
  const value: unknown = Reflect.get(target, property, target);
  return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
}

function set(this: DeferredHandler, _parent: Logger, property: string | symbol, value: unknown): boolean {
  return Reflect.set(logger(this), property, value);
}

function has(this: DeferredHandler, _parent: Logger, property: string | symbol): boolean {
  return Reflect.has(logger(this), property);
}

/**
 * A child logger made on first use. pino's `child()` serialises and redacts its bindings at once,
 * which cost the authenticated read path two child loggers per request (request id, then tenant id)
 * and their garbage, ~10 % of its CPU (docs/performance/request-path.md), while most requests never log. Once
 * anything touches it, this is that child: same bindings, same output.
 */
export function deferredChild(parent: Logger, bindings: Record<string, unknown>): Logger {
  const handler: DeferredHandler = { parent, bindings, child: undefined, get, set, has };
  return new Proxy(parent, handler);
}
