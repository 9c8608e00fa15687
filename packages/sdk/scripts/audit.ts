/**
 * `./qc audit verify <file> [--public-key <hex>]…`: checks an audit export
 * (`GET /v1/audit-events/export`, NDJSON; `-` reads standard input) with the SDK's verifier,
 * streaming the file line by line. Exit 0 printing the last verified sequence; 1 naming the
 * first row changed, removed or reordered, or the bad checkpoint; 2 for a usage error
 * (docs/audit.md).
 */
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { verifyAuditLog, type AuditLogVerified } from "../src/audit.js";

const USAGE = "usage: ./qc audit verify <file|-> [--public-key <hex>]…";

function usage(message?: string): never {
  if (message) console.error(message);
  console.error(USAGE);
  process.exit(2);
}

function summary(result: AuditLogVerified): string {
  const lines = [`OK: last verified sequence ${result.lastVerifiedSequence}`];
  if (result.signaturesChecked) {
    lines.push(
      `rows ${result.firstSequence}–${result.lastSequence} chained; ${result.checkpointsVerified} checkpoint signature(s) verified`,
    );
    if (result.lastSequence > result.lastVerifiedSequence)
      lines.push(`rows ${result.lastVerifiedSequence + 1}–${result.lastSequence}: chain checked, not yet covered by a signed checkpoint`);
  } else {
    lines.push(
      `rows ${result.firstSequence}–${result.lastSequence} chained; ${result.checkpointsUnverified} checkpoint(s) match, ` +
        "signatures NOT checked: give --public-key (GET /v1/audit/public-key)",
    );
  }
  return lines.join("\n");
}

async function verify(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { "public-key": { type: "string", multiple: true } } });
  } catch (error) {
    usage((error as Error).message);
  }
  const [file, ...extra] = parsed.positionals;
  if (!file || extra.length > 0) usage();
  const keys = parsed.values["public-key"];
  const input = file === "-" ? process.stdin : createReadStream(file);
  const opened = new Promise<void>((resolve, reject) => {
    if (file === "-") resolve();
    input.once("open", () => resolve());
    input.once("error", reject);
  });
  try {
    await opened;
  } catch (error) {
    console.error(`cannot read ${file}: ${(error as Error).message}`);
    return 1;
  }
  const lines = createInterface({ input, crlfDelay: Infinity });
  const result = await verifyAuditLog(lines, keys ? { publicKeys: keys } : {});
  if (result.ok) {
    console.log(summary(result));
    return 0;
  }
  const where = result.firstBadSequence === null ? "" : ` at sequence ${result.firstBadSequence}`;
  console.error(`FAILED${where}: ${result.reason} (line ${result.line})`);
  if (result.lastVerifiedSequence !== null) console.error(`last verified sequence before it: ${result.lastVerifiedSequence}`);
  return 1;
}

const [command, ...rest] = process.argv.slice(2);
if (command !== "verify") usage();
process.exit(await verify(rest));
