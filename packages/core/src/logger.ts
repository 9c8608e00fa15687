import pino, { type Logger } from "pino";

export type { Logger };

// Field names whose values must never reach a log line, wherever they appear.
const REDACT = [
  "password",
  "secret",
  "token",
  "authorization",
  "cookie",
  "signature",
  "apiKey",
  "*.password",
  "*.secret",
  "*.token",
  "*.authorization",
  "*.cookie",
  "*.apiKey",
  "req.headers.authorization",
  "req.headers.cookie",
  "headers.authorization",
  "headers.cookie",
];

/** `level` comes from the caller's validated env (LOG_LEVEL); core never reads process.env. */
export function createLogger(name: string, level = "info"): Logger {
  return pino({ name, level, redact: { paths: REDACT, censor: "[redacted]" }, base: { service: name } });
}
