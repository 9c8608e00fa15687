export * from "./context";
export * from "./errors";
export * from "./openapi";
export { ndjsonLines, ndjsonLineSchema } from "./schemas/ndjson";
export * from "./trpc";
export { appRouter, type AppRouter } from "./router";
export * from "./deps";
