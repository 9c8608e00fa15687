import { readFile } from "node:fs/promises";
import { Command } from "commander";
import { SignerError } from "../lib/errors";
import { verifyEvidence } from "../lib/evidence/verify-evidence";
import { printableText } from "../lib/review/printable-text";
import { print } from "../terminal";

/**
 * `verify-evidence <file>` (CONTRACT §19): re-checks a transaction's evidence offline — no
 * profile, no keystore, no network — printing every check with ok or FAILED; exits 1 naming
 * the first failed check.
 */
export function verifyEvidenceCommand(): Command {
  return new Command("verify-evidence")
    .description("check a transaction's evidence (GET /v1/transactions/{id}/evidence) offline: every hash and signature")
    .argument("<file>", "the evidence JSON as the service returned it")
    .action(async (file: string) => {
      let text: string;
      try {
        text = await readFile(file, "utf8");
      } catch (error) {
        throw new SignerError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
      }
      let evidence: unknown;
      try {
        evidence = JSON.parse(text);
      } catch {
        throw new SignerError(`${file} is not JSON`);
      }
      const checks = verifyEvidence(evidence);
      for (const check of checks) print(`${check.ok ? "ok    " : "FAILED"}  ${check.name}: ${printableText(check.detail, 400)}`);
      const failed = checks.find((check) => !check.ok);
      if (failed) throw new SignerError(`evidence does not verify: ${failed.name} failed: ${failed.detail}`);
      print("Evidence verified: every hash and signature holds.");
    });
}
