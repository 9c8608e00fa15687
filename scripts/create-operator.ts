/**
 * Creates an operator of the operators' console (/operators).
 *
 *   OPERATOR_PASSWORD='…' ./qc exec tsx scripts/create-operator.ts --email ops@example.com [--name "Ops"] [--reset-password]
 *   printf '%s\n' '…' | ./qc exec tsx scripts/create-operator.ts --email ops@example.com
 *
 * The password comes from OPERATOR_PASSWORD or, when that is unset, from the first line of
 * standard input; never from an argument (arguments end up in shell history and `ps`). The
 * database is DATABASE_URL, or the embedded PostgreSQL of a running `./qc start`.
 *
 * Recovery when console logins require a passkey (the console's Security section) and no operator
 * who can still log in has one — a lost key, or the last one removed on another machine:
 *
 *   ./qc exec tsx scripts/create-operator.ts --disable-passkey-requirement
 *
 * turns `require_operator_passkey` off (no password asked, no other option taken), audited as
 * `operator.settings.require_operator_passkey_changed` with actor `system`/`cli`; operators then
 * log in with their password, register a passkey and turn the requirement on again
 * (docs/members.md, "Operators' passkeys").
 */
import { parseArgs } from "node:util";
// The workspace root depends on @qc/db only; the service is reached through its source.
import { AppError } from "../packages/core/src/errors";
import { createOperator } from "../packages/core/src/operators/create-operator";
import { getOperatorSecuritySettings, updateOperatorSecuritySettings } from "../packages/core/src/operators/operator-passkeys";
import { createDatabase, runMigrations } from "@qc/db";

const USAGE = [
  "usage: create-operator.ts --email <address> [--name <name>] [--reset-password]  (password: OPERATOR_PASSWORD or stdin)",
  "       create-operator.ts --disable-passkey-requirement  (console logins need no passkey until an operator requires one again)",
].join("\n");

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

let args: { email?: string; name?: string; "reset-password"?: boolean; "disable-passkey-requirement"?: boolean };
try {
  args = parseArgs({
    options: {
      email: { type: "string" },
      name: { type: "string" },
      "reset-password": { type: "boolean" },
      "disable-passkey-requirement": { type: "boolean" },
    },
    strict: true,
  }).values;
} catch (error) {
  fail(`${(error as Error).message}\n${USAGE}`, 2);
}
const recovery = args["disable-passkey-requirement"] === true;
if (recovery ? args.email !== undefined || args.name !== undefined || args["reset-password"] : !args.email) fail(USAGE, 2);

const url = process.env.DATABASE_URL ?? `postgres://postgres:postgres@127.0.0.1:${process.env.EMBEDDED_PG_PORT ?? 54329}/quantum_custody`;
const password = recovery ? "" : await readPassword();
try {
  await runMigrations(url);
} catch (error) {
  fail(`cannot reach the database (${(error as Error).message}); run this while \`./qc start\` is running, or set DATABASE_URL`);
}
const database = createDatabase({ url, applicationName: "qc-create-operator" });
try {
  if (recovery) await disablePasskeyRequirement();
  else await create();
} catch (error) {
  if (error instanceof AppError) fail(error.message);
  throw error;
} finally {
  await database.close();
}

async function disablePasskeyRequirement(): Promise<void> {
  const deps = { db: database.db, now: () => new Date() };
  const { requireOperatorPasskey: before } = await getOperatorSecuritySettings(deps);
  await updateOperatorSecuritySettings(deps, { operatorId: null, requireOperatorPasskey: false });
  process.stdout.write(
    before
      ? "Console logins no longer require a passkey: operators log in with their password. Register passkeys, then require them again in the console.\n"
      : "Console logins did not require a passkey: nothing changed.\n",
  );
}

async function create(): Promise<void> {
  const operator = await createOperator(
    { db: database.db, now: () => new Date() },
    { email: args.email!, name: args.name, password, resetPassword: args["reset-password"] },
  );
  const ended = operator.created ? "" : ` Ended ${operator.sessionsEnded} console session(s).`;
  process.stdout.write(
    `${operator.created ? "Created" : "Reset the password of"} operator ${operator.email} (${operator.id}).${ended} Log in at /operators/login.\n`,
  );
}
