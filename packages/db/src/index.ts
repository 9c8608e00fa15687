export * from "./client";
export { isUniqueViolation } from "./errors";
export { newRowId } from "./ids";
export {
  hasWritesAtCommit,
  jobExecutor,
  pipelinedTransaction,
  prepareJobStatements,
  PipelinedReads,
  TransactionRolledBack,
  writeAtCommit,
  type BuiltStatement,
  type PipelinedReadsOptions,
  type PipelinedTransactionWork,
} from "./hot-path";
export { migrationStatus, runMigrations, type MigrationStatus } from "./migrate";
export { createNotificationListener, type NotificationListener, type NotificationListenerOptions } from "./notification-listener";
export { readDbEnv } from "./env";
export * as schema from "./schema";
// One drizzle instance for the whole workspace: query operators come from here.
export { and, asc, count, desc, eq, gt, gte, inArray, isNotNull, isNull, lt, lte, ne, or, sql } from "drizzle-orm";
