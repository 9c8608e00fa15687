import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Command } from "commander";
import { readSignerEnv, type SignerEnv } from "../env";
import { withFileLock } from "../lib/file-lock";
import { printableText } from "../lib/review/printable-text";
import { DailyLedger } from "../lib/serve/daily-ledger";
import { formatDecisionLine, type DecisionLine } from "../lib/serve/decision-line";
import { readRulesFile, type ServeRules } from "../lib/serve/rules";
import { SecretKeys } from "../lib/serve/secret-keys";
import { approvePoll, approveState } from "../lib/serve/approve-poll";
import { currentApprovalKey } from "../lib/approvals/approval-key";
import { SignerError } from "../lib/errors";
import type { UnlockedKeystore } from "../lib/keystore/keystore";
import { servePoll, serveState, SUBMISSIONS_IN_FLIGHT } from "../lib/serve/serve-poll";
import { ServiceError } from "../lib/service/service-client";
import { connect, signerPaths } from "../session";
import { print } from "../terminal";
import { integerIn } from "./options";

/** The file under QC_SIGNER_HOME where `serve` keeps today's signed totals. */
export const SERVE_STATE_FILE = "serve-state.json";

const HELP = [
  "",
  "Signs unattended, by rules: what a hot wallet runs (CONTRACT §17). Every --poll-ms it lists the signing",
  "requests, oldest nonce first; for each it does the rebuild-and-compare of `review` (any difference: it",
  'rejects, rule "verification"), then applies the rules; a request they forbid is rejected',
  "(POST …/reject) with the rule named in the reason; the others are signed with the keystore's key of",
  "their source (passphrase from QC_SIGNER_PASSPHRASE) and submitted. No confirmation is typed: the rules",
  "file is the confirmation. A request whose source key is not in this keystore is left for another signer.",
  "",
  "The rules file (JSON, every key required, amounts as decimal strings of base units, by asset id):",
  '  {"maxAmountPerTransfer": {"<assetId>": "1000000000000000000"},',
  '   "dailyLimit": {"<assetId>": "50000000000000000000"},',
  '   "destinations": "ADDRESS_BOOK" | ["0x…", …],',
  '   "types": ["TRANSFER", "NONCE_FILL", "CANCELLATION", "REPLACEMENT", "CONTRACT_DEPLOY"]}',
  "A transfer is refused when its type is not in types, its destination is not an ACTIVE address-book entry",
  'of its network and asset ("ADDRESS_BOOK", read again at most every second) or not in the list, its',
  "asset has no maxAmountPerTransfer or dailyLimit, its amount is above maxAmountPerTransfer, or it would",
  "bring today's signed total (UTC day) above dailyLimit. A NONCE_FILL or CANCELLATION moves no value: it",
  "counts 0 and its destination is the source itself, so only types decides it. List NONCE_FILL: when a",
  "fill is rejected the nonce is still unused, the service fills it again, and the source's later transfers",
  "wait behind it. A REPLACEMENT (a speed-up) is judged as its original (its type must be listed too) and",
  "its amount is counted once: it is the same transfer. A CONTRACT_DEPLOY moves no value and has no destination.",
  "",
  `Output: one JSON line per decision on stdout, {time, transactionId, type, decision: "SIGNED"|"REJECTED",`,
  "rule?, reason?, amount, assetId, destination}, written once the service accepted it; errors on stderr.",
  `Today's signed totals are kept in QC_SIGNER_HOME/${SERVE_STATE_FILE}, written before each group of`,
  "signatures is submitted (a crash counts an amount never sent, never the reverse); one serve per home.",
  "SIGTERM or SIGINT: no new submission starts, the one under way completes, exit 0.",
  "",
  "Approvals (CONTRACT §15): when this keystore holds an approval key of the tenant (`enroll-approver` in",
  "this home), serve also decides the approvals awaiting its member: each is rebuilt and compared as",
  "`approve` does, judged by the same rules (dailyLimit against what was signed today; an approval counts",
  'nothing), then approved or rejected with the rule named; its line has "approval": true and decision',
  "APPROVED or REJECTED. One the service will never let this member approve (its own transfer, a group it",
  "is not in) is left to people. --no-approvals: signing requests only.",
  "Exit codes: 0 stopped by a signal; 1 refused credentials or damaged state; 2 a bad rules file or option.",
].join("\n");

export function serveCommand(): Command {
  return new Command("serve")
    .description("sign unattended what a rules file allows, reject the rest with the rule named (one JSON line per decision)")
    .requiredOption("--rules <file>", "the rules file (JSON; see below)")
    .option("--poll-ms <ms>", "milliseconds between polls of the signing requests (20 to 60000)", integerIn(20, 60_000), 200)
    .option("--no-approvals", "never decide approvals, even with an approval key in this keystore")
    .addHelpText("after", HELP)
    .action(async (options: ServeOptions) => {
      // The rules first: a bad file is a usage error before any passphrase or connection.
      const rules = readRulesFile(options.rules);
      const env = readSignerEnv();
      const statePath = join(signerPaths(env).home, SERVE_STATE_FILE);
      // From here on a signal stops serve cleanly (exit 0), even while it is still starting.
      const stop = new AbortController();
      const onSignal = () => stop.abort();
      process.once("SIGINT", onSignal);
      process.once("SIGTERM", onSignal);
      // Whoever reads the decision lines went away (a closed pipe): stop as on a signal, not with a
      // crash. Kept to the end: the writes of submissions still under way fail after it too.
      process.stdout.on("error", (error: NodeJS.ErrnoException) => {
        if (!stop.signal.aborted) warn(`standard output failed (${error.code ?? error.message}): stopping`);
        stop.abort();
      });
      try {
        await withFileLock(statePath, () => serve(options, rules, statePath, env, stop.signal), {
          timeoutMs: 0,
          busy: `another signer serve is running with this QC_SIGNER_HOME (${statePath}.lock): one serve per home, so that its daily totals are one`,
        });
      } finally {
        process.off("SIGINT", onSignal);
        process.off("SIGTERM", onSignal);
      }
    });
}

type ServeOptions = { rules: string; pollMs: number; approvals: boolean };

const warn = (message: string) => process.stderr.write(`signer: ${printableText(message, 2000)}\n`);

/** The member's approval key when this keystore holds one for the tenant (serve then decides approvals), else null. */
function approvalsOf(keystore: UnlockedKeystore, tenantId: string) {
  try {
    return { approvalKey: currentApprovalKey(keystore, tenantId), state: approveState() };
  } catch (error) {
    if (!(error instanceof SignerError)) throw error;
    return null;
  }
}

/** After failed polls in a row the pause doubles from --poll-ms up to this, so that an outage is not hammered (nor stderr flooded). */
const MAX_BACKOFF_MS = 2_000;

/** Polls until `signal`: at once again after a poll that carried out decisions, else after --poll-ms (longer after failures). */
async function serve(options: ServeOptions, rules: ServeRules, statePath: string, env: SignerEnv, signal: AbortSignal): Promise<void> {
  const ledger = DailyLedger.open(statePath);
  const { keystore, profile, api, client } = await connect(env, { keptConnections: SUBMISSIONS_IN_FLIGHT });
  const secretKeys = new SecretKeys();
  try {
    let approving = options.approvals ? approvalsOf(keystore, profile.tenantId) : null;
    const state = serveState();
    const deps = {
      api,
      findKey: (address: string) => keystore.findKey(address),
      rules,
      ledger,
      signal,
      secretKeys,
      emit: (line: DecisionLine) => print(formatDecisionLine(line)),
      warn,
    };
    const approvals = approving
      ? `and the approvals awaiting this member with approval key ${approving.approvalKey.keyId}`
      : options.approvals
        ? "(no approval key of the tenant in this keystore: no approvals)"
        : "(--no-approvals)";
    warn(`serving signing requests ${approvals} by the rules in ${options.rules}, every ${options.pollMs} ms (SIGTERM or Ctrl-C to stop)`);
    let failures = 0;
    while (!signal.aborted) {
      let accepted = 0;
      try {
        accepted = await servePoll(deps, state);
        if (approving && !signal.aborted) {
          try {
            accepted += await approvePoll(
              { ...deps, tenantId: profile.tenantId, approvalKey: approving.approvalKey },
              state,
              approving.state,
            );
          } catch (error) {
            if (!(error instanceof ServiceError && (error.status === 403 || error.status === 404))) throw error;
            warn(`not deciding approvals from now on: ${error.message}`);
            approving = null;
          }
        }
        failures = 0;
      } catch (error) {
        // A refused credential will not heal by waiting; anything else (network, 5xx, 429) may.
        if (error instanceof ServiceError && (error.status === 401 || error.status === 403)) throw error;
        failures += 1;
        warn(`polling failed, trying again: ${(error as Error).message}`);
      }
      const pause = Math.min(options.pollMs * 2 ** Math.min(failures, 10), Math.max(options.pollMs, MAX_BACKOFF_MS));
      if (accepted === 0) await sleep(pause, undefined, { signal }).catch(() => undefined);
    }
  } finally {
    secretKeys.close();
    keystore.close();
    client.close();
  }
  warn("stopped: every submission started has completed");
}
