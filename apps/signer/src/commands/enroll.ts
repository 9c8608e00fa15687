import { Command } from "commander";
import { enrollKeys, MAX_ENROLL_COUNT } from "../lib/enroll-keys";
import { connect } from "../session";
import { print, progressLine } from "../terminal";
import { integerIn } from "./options";

export function enrollCommand(): Command {
  return new Command("enroll")
    .description("generate keys, prove ownership of each and enroll them for wallets/generate")
    .requiredOption(
      "--count <n>",
      `how many new keys (0 to ${MAX_ENROLL_COUNT}; 0 only finishes an interrupted run)`,
      integerIn(0, MAX_ENROLL_COUNT),
    )
    .addHelpText(
      "after",
      "\nA key is written to the keystore before it is uploaded and marked ENROLLED only once the service\naccepted " +
        "it; keys the service refused are removed again.",
    )
    .action(async (options: { count: number }) => {
      const { keystore, profile, api } = await connect();
      try {
        const result = await enrollKeys({
          keystore,
          api,
          tenantId: profile.tenantId,
          count: options.count,
          onProgress: ({ accepted, total }) => {
            if (total > 0) progressLine(`Enrolling keys: ${accepted}/${total}`, accepted === total);
          },
        });
        if (result.accepted.length === 0) {
          print("Nothing to enroll.");
          return;
        }
        const resumed = result.resumed > 0 ? ` (${result.resumed} of them left pending by an earlier run)` : "";
        print(
          `Enrolled ${result.accepted.length} keys${resumed}. The service has ${result.available} available and ${result.assigned} assigned.`,
        );
      } finally {
        keystore.close();
      }
    });
}
