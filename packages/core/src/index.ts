export * from "./errors";
export * from "./logger";
export * from "./audit/record-audit-event";
export * from "./jobs/catalog";
export * from "./jobs/queue";
