import { describe, expect, it } from "vitest";
import { runSigner } from "./run-signer";
import { tempDir } from "./signer-home";

const COMMANDS = [
  "init",
  "login",
  "keys list",
  "enroll",
  "register-wallet",
  "pending",
  "review",
  "reject",
  "watch",
  "serve",
  "enroll-approver",
  "approvals",
  "approve",
  "reject-approval",
];

describe("signer command line", () => {
  const home = tempDir("qc-signer-cli-");

  it("answers --help on every command with exit 0, and usage errors with exit 2", async () => {
    const helps = await Promise.all(COMMANDS.map((command) => runSigner([...command.split(" "), "--help"], { home })));
    helps.forEach((run, i) => {
      expect(run.code, COMMANDS[i]).toBe(0);
      expect(run.stdout).toContain(`Usage: signer ${COMMANDS[i]}`);
    });
    const usage = await Promise.all(
      [
        [],
        ["sign-everything"],
        ["enroll"],
        ["enroll", "--count", "-1"],
        ["review"],
        ["review", "not-a-uuid"],
        ["watch", "--interval", "0"],
        ["serve"],
        ["serve", "--rules", "/nonexistent/rules.json"],
        ["serve", "--rules", "/dev/null", "--poll-ms", "5"],
        ["approve"],
        ["approve", "not-a-uuid"],
        ["reject-approval", "0193a5c0-0000-7000-8000-0000000000e1"],
      ].map((args) => runSigner(args, { home })),
    );
    for (const run of usage) {
      expect(run.code, run.args.join(" ")).toBe(2);
      expect(run.stderr).not.toContain("    at ");
    }
    // No option signs without the typed confirmation.
    expect(helps[COMMANDS.indexOf("review")]!.stdout).not.toMatch(/--(yes|force|no-confirm)/);
    expect(helps[COMMANDS.indexOf("approve")]!.stdout).not.toMatch(/--(yes|force|no-confirm)/);
  });
});
