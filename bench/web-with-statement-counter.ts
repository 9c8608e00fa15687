/**
 * The web process as apps/web/server.ts starts it, with bench/statement-counter.ts installed
 * first. An entry module rather than a `--import` preload: worker threads inherit the process's
 * flags, and a TypeScript preload stops the signature verify pool's threads from starting.
 */
import "./statement-counter";

await import("../apps/web/server");
