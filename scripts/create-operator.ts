/**
 * Creates an operator of the operators' console (/operators).
 *
 *   OPERATOR_PASSWORD='…' ./qc exec tsx scripts/create-operator.ts --email ops@example.com [--name "Ops"] [--reset-password]
 *   printf '%s\n' '…' | ./qc exec tsx scripts/create-operator.ts --email ops@example.com
 *
 * The password comes from OPERATOR_PASSWORD or, when that is unset, from the first line of
 * standard input; never from an argument (arguments end up in shell history and `ps`). The
 * database is DATABASE_URL, or the embedded PostgreSQL of a running `./qc start`.
 */
import { parseArgs } from "node:util";
// The workspace root depends on @qc/db only; the service is reached through its source.
import { AppError } from "../packages/core/src/errors";
import { createOperator } from "../packages/core/src/operators/create-operator";
import { createDatabase, runMigrations } from "@qc/db";

const USAGE = "usage: create-operator.ts --email <address> [--name <name>] [--reset-password]  (password: OPERATOR_PASSWORD or stdin)";

function fail(message: string, code = 1): never {
  process.stderr.write(`create-operator: ${message}\n`);
  process.exit(code);
}

async function readPassword(): Promise<string> {
  const fromEnv = process.env.OPERATOR_PASSWORD;
  if (fromEnv !== undefined) return fromEnv;
  if (process.stdin.isTTY) process.stderr.write("Password for the new operator (12 to 256 characters), then Enter: ");
  let input = "";
  for await (const chunk of process.stdin) {
    input += String(chunk);
    if (input.includes("\n")) break;
  }
  return input.split(/\r?\n/)[0] ?? "";
}

let args: { email?: string; name?: string; "reset-password"?: boolean };
try {
  args = parseArgs({
    options: { email: { type: "string" }, name: { type: "string" }, "reset-password": { type: "boolean" } },
    strict: true,
  }).values;
} catch (error) {
  fail(`${(error as Error).message}\n${USAGE}`, 2);
}
if (!args.email) fail(USAGE, 2);

const url = process.env.DATABASE_URL ?? `postgres://postgres:postgres@127.0.0.1:${process.env.EMBEDDED_PG_PORT ?? 54329}/quantum_custody`;
const password = await readPassword();
try {
  await runMigrations(url);
} catch (error) {
  fail(`cannot reach the database (${(error as Error).message}); run this while \`./qc start\` is running, or set DATABASE_URL`);
}
const database = createDatabase({ url, applicationName: "qc-create-operator" });
try {
  const operator = await createOperator(
    { db: database.db, now: () => new Date() },
    { email: args.email, name: args.name, password, resetPassword: args["reset-password"] },
  );
  const ended = operator.created ? "" : ` Ended ${operator.sessionsEnded} console session(s).`;
  process.stdout.write(
    `${operator.created ? "Created" : "Reset the password of"} operator ${operator.email} (${operator.id}).${ended} Log in at /operators/login.\n`,
  );
} catch (error) {
  if (error instanceof AppError) fail(error.message);
  throw error;
} finally {
  await database.close();
}
