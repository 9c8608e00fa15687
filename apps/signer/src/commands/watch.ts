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

export function watchCommand(): Command {
  return new Command("watch")
    .description("wait for transactions to sign: prints each new one and rings the bell (each still needs `review`)")
    .option("--interval <seconds>", "seconds between polls (1 to 3600)", integerIn(1, 3600), 5)
    .action(async (options: { interval: number }) => {
      const { keystore, api } = await connect();
      keystore.close();
      const stop = new AbortController();
      const onSignal = () => stop.abort();
      process.once("SIGINT", onSignal);
      process.once("SIGTERM", onSignal);
      const seen = new Set<string>();
      const assetsOf = assetLookup(api);
      print(`Watching for transactions waiting for a signature every ${options.interval} s (Ctrl-C to stop).`);
      try {
        while (!stop.signal.aborted) {
          try {
            const { transactions } = await api.pendingTransactions();
            for (const transaction of transactions) {
              const id = String(transaction.id);
              if (seen.has(id)) continue;
              seen.add(id);
              ringBell();
              print(`New: ${formatSummary(summarizeTransaction(transaction, await assetsOf(transaction.networkCode)))}`);
              print(`     review it with: signer review ${printableText(id, 64)}`);
            }
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
