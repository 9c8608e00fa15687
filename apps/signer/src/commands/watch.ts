import { setTimeout as sleep } from "node:timers/promises";
import { Command } from "commander";
import { ServiceError } from "../lib/service/service-client";
import { summarizeTransaction } from "../lib/review/summarize-transaction";
import { printableText } from "../lib/review/printable-text";
import { connect } from "../session";
import { print, ringBell } from "../terminal";
import { assetLookup } from "./asset-lookup";
import { formatSummary } from "./pending";
import { integerIn } from "./options";
import type { SignerApi } from "../lib/service/signer-api";

/** How often the wallets are checked against the keystore: often enough to catch the next generate, without listing every vault every poll. */
const WALLET_CHECK_MS = 60_000;

/**
 * Warns, once per wallet, about every wallet with a key (signer-managed or registered) whose
 * address is not in this keystore: this signer cannot sign for it, and whoever holds its key
 * controls what is deposited to it. That is what a planted pool key or registration looks like
 * (security review H2), and also what a second signer's keys look like: the person decides.
 */
async function warnAboutForeignWallets(api: SignerApi, held: ReadonlySet<string>, warned: Set<string>): Promise<void> {
  for (const wallet of await api.wallets()) {
    if (wallet.type === "WATCH_ONLY" || warned.has(wallet.id) || held.has(wallet.address.toLowerCase())) continue;
    warned.add(wallet.id);
    process.stderr.write(
      `signer: WARNING: wallet ${printableText(wallet.id, 64)} (${printableText(wallet.type, 32)}, address ${printableText(wallet.address, 64)}, vault ${printableText(wallet.vaultId, 64)}) ` +
        "has a key this keystore does not hold: this signer cannot sign for it, and whoever holds the key controls its funds. " +
        "Do not deposit to it until you know who enrolled or registered that key.\n",
    );
  }
}

/**
 * Reports what awaits this member's approval (CONTRACT §15) whenever it changes: the count and
 * the ids, with the bell when one is new. A credential that may not list approvals (a VIEWER's, or
 * a service without approval quorums) is said once, and the watch goes on for signatures only.
 */
function approvalReporter(api: SignerApi): () => Promise<void> {
  let reported: string[] = [];
  let available = true;
  return async () => {
    if (!available) return;
    let transactions: Record<string, unknown>[];
    try {
      ({ transactions } = await api.pendingApprovals());
    } catch (error) {
      if (error instanceof ServiceError && (error.status === 403 || error.status === 404)) {
        available = false;
        process.stderr.write(`signer: not watching approvals: ${printableText(error.message, 500)}\n`);
        return;
      }
      throw error;
    }
    const ids = transactions.map((transaction) => printableText(String(transaction.id), 64));
    if (ids.length === reported.length && ids.every((id, i) => id === reported[i])) return;
    const fresh = ids.some((id) => !reported.includes(id));
    reported = ids;
    if (ids.length === 0) {
      print("Approvals waiting for you: none.");
      return;
    }
    if (fresh) ringBell();
    print(`Approvals waiting for you: ${ids.length} (${ids.join(", ")})`);
    print("     approve one with: signer approve <id>, or refuse it with: signer reject-approval <id> --reason <text>");
  };
}

export function watchCommand(): Command {
  return new Command("watch")
    .description(
      "wait for transactions to sign: prints each new one and rings the bell (each still needs `review`); reports " +
        "the approvals waiting for you whenever they change; warns about any wallet whose key is not in this keystore",
    )
    .option("--interval <seconds>", "seconds between polls (1 to 3600)", integerIn(1, 3600), 5)
    .action(async (options: { interval: number }) => {
      const { keystore, api } = await connect();
      const held = new Set(keystore.keys.map((key) => key.address.toLowerCase()));
      keystore.close();
      const warned = new Set<string>();
      let walletsCheckedAt = -Infinity;
      const stop = new AbortController();
      const onSignal = () => stop.abort();
      process.once("SIGINT", onSignal);
      process.once("SIGTERM", onSignal);
      const seen = new Set<string>();
      const assetsOf = assetLookup(api);
      const reportApprovals = approvalReporter(api);
      print(`Watching for transactions waiting for a signature, and for your approval, every ${options.interval} s (Ctrl-C to stop).`);
      try {
        while (!stop.signal.aborted) {
          try {
            if (Date.now() - walletsCheckedAt >= WALLET_CHECK_MS) {
              await warnAboutForeignWallets(api, held, warned);
              walletsCheckedAt = Date.now();
            }
            const { transactions } = await api.pendingTransactions();
            for (const transaction of transactions) {
              const id = String(transaction.id);
              if (seen.has(id)) continue;
              seen.add(id);
              ringBell();
              print(`New: ${formatSummary(summarizeTransaction(transaction, await assetsOf(transaction.networkCode)))}`);
              print(`     review it with: signer review ${printableText(id, 64)}`);
            }
            await reportApprovals();
          } catch (error) {
            // A refused credential will not heal by waiting; anything else (network, 5xx) may.
            if (error instanceof ServiceError && (error.status === 401 || error.status === 403)) throw error;
            process.stderr.write(`signer: polling failed, trying again: ${printableText((error as Error).message, 500)}\n`);
          }
          await sleep(options.interval * 1000, undefined, { signal: stop.signal }).catch(() => undefined);
        }
      } finally {
        process.off("SIGINT", onSignal);
        process.off("SIGTERM", onSignal);
      }
      print("Stopped watching.");
    });
}
