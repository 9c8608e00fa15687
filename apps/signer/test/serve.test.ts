import { randomUUID } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildQuantumTransfer, signingHash, verifyQuantumSigningHash } from "@qc/chain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KeyMaterial } from "../src/lib/keystore/signer-key";
import { jsonLines, leaks, runSigner, spawnSigner, stopSigner, type SignerRun } from "./run-signer";
import {
  NATIVE_SANDBOX,
  pendingTransfer,
  sandboxFields,
  startSignerDouble,
  type SignerDouble,
  type Tampering,
  type TransferFields,
} from "./signer-double";
import { prepareSignerHome, tempDir } from "./signer-home";

const Q = 10n ** 18n;
const PAYEE = "0x00000000000000000000000000000000000b0b5e";
const STRANGER = "0x000000000000000000000000000000000000e711";

/**
 * `signer serve` against a test double of the service (CONTRACT §17): the rules, the daily
 * totals across a restart, the refusals of tampered self-sends and replacements, the stop on
 * SIGTERM. serve-stack.test.ts drives it against the real web server, daemon and devnet.
 */
describe("signer serve against a test double of the service", () => {
  let double: SignerDouble;
  let home: string;
  let passphrase: string;
  let source: KeyMaterial;

  beforeAll(async () => {
    double = await startSignerDouble();
    const prepared = await prepareSignerHome({ url: double.url, apiKey: double.apiKey, tenantId: double.tenantId, keys: 1 });
    ({ home, passphrase } = prepared);
    source = prepared.keys[0]!;
  });
  afterAll(async () => {
    await double?.close();
    const { secretKeyOf } = await import("../src/lib/keystore/signer-key");
    expect(leaks([secretKeyOf(source).slice(32, 64), double.apiKey.split(":")[1]!, passphrase])).toEqual([]);
  });

  const rulesFile = (rules: unknown) => {
    const path = join(tempDir("qc-serve-rules-"), "rules.json");
    writeFileSync(path, typeof rules === "string" ? rules : JSON.stringify(rules));
    return path;
  };
  const RULES = {
    maxAmountPerTransfer: { [NATIVE_SANDBOX.id]: (2n * Q).toString() },
    dailyLimit: { [NATIVE_SANDBOX.id]: (3n * Q).toString() },
    destinations: [PAYEE],
    types: ["TRANSFER", "NONCE_FILL", "CANCELLATION", "REPLACEMENT"],
  };
  const fields = (overrides: Partial<TransferFields> = {}) =>
    sandboxFields({ id: randomUUID(), sourceAddress: source.address, destinationAddress: PAYEE, amount: Q, ...overrides });
  const add = (record: Record<string, unknown>) => {
    double.transactions.push(record);
    return String(record.id);
  };
  const statusOf = (id: string) => double.transactions.find((t) => t.id === id)!;

  /** Runs serve until every listed transaction is decided (or `until` holds), then SIGTERM. */
  async function serveUntil(rules: string, done: () => boolean, pollMs = 50): Promise<{ run: SignerRun; lines: Record<string, any>[] }> {
    const running = spawnSigner(["serve", "--rules", rules, "--poll-ms", String(pollMs)], { home, passphrase });
    const deadline = Date.now() + 60_000;
    while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const run = await stopSigner(running);
    return { run, lines: jsonLines(run) };
  }
  const decided =
    (...ids: string[]) =>
    () =>
      ids.every((id) => statusOf(id).status !== "PENDING_SIGNATURE");

  it("signs what the rules allow, rejects the rest with the rule named, keeps the day's total across a restart, stops on SIGTERM", async () => {
    const rules = rulesFile(RULES);
    const allowed = fields({ nonce: 1 });
    const tooMuch = fields({ nonce: 2, amount: 5n * Q });
    const stranger = fields({ nonce: 3, destinationAddress: STRANGER });
    const ids = [add(pendingTransfer(allowed)), add(pendingTransfer(tooMuch)), add(pendingTransfer(stranger))];
    const first = await serveUntil(rules, decided(...ids));
    expect(first.run.code, first.run.stderr).toBe(0);
    expect(first.run.signal).toBeNull();
    expect(first.run.stderr).toContain("stopped");
    expect(first.lines).toEqual([
      {
        time: expect.any(String),
        transactionId: ids[0],
        type: "TRANSFER",
        decision: "SIGNED",
        amount: Q.toString(),
        assetId: NATIVE_SANDBOX.id,
        destination: PAYEE,
      },
      expect.objectContaining({ transactionId: ids[1], decision: "REJECTED", rule: "maxAmountPerTransfer", amount: (5n * Q).toString() }),
      expect.objectContaining({ transactionId: ids[2], decision: "REJECTED", rule: "destinations", destination: STRANGER }),
    ]);
    expect(statusOf(ids[1]!)).toMatchObject({
      status: "REJECTED",
      statusReason: expect.stringContaining("rule maxAmountPerTransfer: amount 5000000000000000000 is above"),
    });
    // The signature is over the hash rebuilt here, by the source's key.
    const post = double.posts.find((p) => p.path === `/v1/signer/transactions/${ids[0]}/signature`)!;
    const hash = signingHash(
      buildQuantumTransfer({
        chainId: 20804,
        nonce: 1,
        maxFeePerGas: allowed.fee.maxFeePerGas,
        maxPriorityFeePerGas: allowed.fee.maxPriorityFeePerGas,
        gas: 21_000n,
        to: PAYEE,
        amount: Q,
      }),
    );
    expect(verifyQuantumSigningHash({ signingHash: hash, signature: post.body.signature, publicKey: source.publicKey })).toBe(true);
    const state = JSON.parse(readFileSync(join(home, "serve-state.json"), "utf8"));
    expect(state.signed).toEqual({ [NATIVE_SANDBOX.id]: Q.toString() });

    // A restart: 1 Q signed today; 2 Q more reaches the 3 Q limit, 1 Q more is above it.
    const second = [add(pendingTransfer(fields({ nonce: 4, amount: 2n * Q }))), add(pendingTransfer(fields({ nonce: 5 })))];
    const again = await serveUntil(rules, decided(...second));
    expect(again.run.code, again.run.stderr).toBe(0);
    expect(again.lines.map((l) => [l.transactionId, l.decision, l.rule])).toEqual([
      [second[0], "SIGNED", undefined],
      [second[1], "REJECTED", "dailyLimit"],
    ]);
    expect(again.lines[1]!.reason).toContain(`on top of ${3n * Q} signed today`);
  });

  it("refuses a cancellation that is not to the source itself and a replacement that differs from its original", async () => {
    // The first test used the day's 3 Q; the original here was signed elsewhere, so its speed-up counts.
    const rules = rulesFile({ ...RULES, dailyLimit: { [NATIVE_SANDBOX.id]: (100n * Q).toString() } });
    const selfSend = (type: string, tamper: Tampering = {}) => {
      const f = fields({ destinationAddress: source.address, amount: 0n, nonce: 10 });
      return { ...pendingTransfer(f, tamper), type, assetId: null, replacesTransactionId: null };
    };
    const fill = add(selfSend("NONCE_FILL"));
    const thief = add(selfSend("CANCELLATION", { destinationAddress: STRANGER }));

    const originalFields = fields({ nonce: 11 });
    const { signingRequest: _r, ...originalRecord } = pendingTransfer(originalFields);
    add({ ...originalRecord, status: "BROADCASTING" });
    const raised = { ...originalFields.fee, maxFeePerGas: 3_000_000_000n, maxPriorityFeePerGas: 2_000_000_000n };
    const replacementOf = (overrides: Partial<TransferFields>, tamper: Tampering = {}) => ({
      ...pendingTransfer({ ...originalFields, id: randomUUID(), fee: raised, ...overrides }, tamper),
      type: "REPLACEMENT",
      replacesTransactionId: originalFields.id,
    });
    const speedUp = add(replacementOf({}));
    const redirected = add(replacementOf({ destinationAddress: STRANGER }));
    const cheaper = add(replacementOf({ fee: originalFields.fee }));

    const { run, lines } = await serveUntil(rules, decided(fill, thief, speedUp, redirected, cheaper));
    expect(run.code, run.stderr).toBe(0);
    const byId = Object.fromEntries(lines.map((l) => [l.transactionId, l]));
    expect(byId[fill]).toMatchObject({ type: "NONCE_FILL", decision: "SIGNED", amount: "0", assetId: null, destination: source.address });
    expect(byId[thief]).toMatchObject({ type: "CANCELLATION", decision: "REJECTED", rule: "verification" });
    expect(byId[thief]!.reason).toContain("destinationAddress differs");
    expect(byId[speedUp]).toMatchObject({ type: "REPLACEMENT", decision: "SIGNED", amount: Q.toString() });
    expect(byId[redirected]).toMatchObject({ decision: "REJECTED", rule: "verification" });
    expect(byId[redirected]!.reason).toContain("destinationAddress differs from the original");
    expect(byId[cheaper]).toMatchObject({ decision: "REJECTED", rule: "verification" });
    expect(byId[cheaper]!.reason).toContain("fee.maxFeePerGas is 2000000000 Qwei, not higher than the original's");
  });

  it("on SIGTERM completes the submissions under way, starts no other, and counts the unsent once (fail closed)", async () => {
    const home2 = await prepareSignerHome({ url: double.url, apiKey: double.apiKey, tenantId: double.tenantId, keys: 1 });
    const from = home2.keys[0]!.address;
    // One group of 6: the first SUBMISSIONS_IN_FLIGHT (4) are sent at once, the other 2 wait for them.
    const ids = [1, 2, 3, 4, 5, 6].map((nonce) => add(pendingTransfer(fields({ sourceAddress: from, nonce }))));
    const rules = rulesFile({ ...RULES, dailyLimit: { [NATIVE_SANDBOX.id]: (10n * Q).toString() } });
    const options = { home: home2.home, passphrase: home2.passphrase };
    const postsOf = () => double.posts.filter((p) => ids.some((id) => p.path.includes(id)));
    double.postDelayMs = 1_500;
    try {
      const running = spawnSigner(["serve", "--rules", rules, "--poll-ms", "50"], options);
      while (postsOf().length < 4) await new Promise((r) => setTimeout(r, 20));
      // Four signatures are on their way (held by the service): stop now.
      const run = await stopSigner(running);
      expect(run.code, run.stderr).toBe(0);
      expect(postsOf().map((p) => p.path)).toEqual(ids.slice(0, 4).map((id) => `/v1/signer/transactions/${id}/signature`));
      expect(
        jsonLines(run)
          .map((l) => l.transactionId)
          .sort(),
      ).toEqual(ids.slice(0, 4).sort());
      expect(ids.map((id) => statusOf(id).status)).toEqual([...Array(4).fill("SIGNED"), "PENDING_SIGNATURE", "PENDING_SIGNATURE"]);
      // The group's six amounts were recorded before its first submission: counted, two not yet sent.
      const ledger = () => JSON.parse(readFileSync(join(home2.home, "serve-state.json"), "utf8")).signed[NATIVE_SANDBOX.id];
      expect(ledger()).toBe((6n * Q).toString());
    } finally {
      double.postDelayMs = 0;
    }
    // Decided again after the restart, the two left are signed and not counted a second time.
    const restarted = spawnSigner(["serve", "--rules", rules, "--poll-ms", "50"], options);
    while (ids.some((id) => statusOf(id).status === "PENDING_SIGNATURE")) await new Promise((r) => setTimeout(r, 20));
    const run = await stopSigner(restarted);
    expect(jsonLines(run).map((l) => l.transactionId)).toEqual(ids.slice(4));
    expect(JSON.parse(readFileSync(join(home2.home, "serve-state.json"), "utf8")).signed[NATIVE_SANDBOX.id]).toBe((6n * Q).toString());
  });

  it("stops as on a signal when its standard output is closed: the submissions under way complete, exit 0", async () => {
    const home3 = await prepareSignerHome({ url: double.url, apiKey: double.apiKey, tenantId: double.tenantId, keys: 1 });
    const running = spawnSigner(["serve", "--rules", rulesFile(RULES), "--poll-ms", "50"], {
      home: home3.home,
      passphrase: home3.passphrase,
    });
    let stderr = "";
    running.child.stderr!.on("data", (chunk: string) => (stderr += chunk));
    for (let i = 0; i < 400 && !stderr.includes("serving signing requests"); i += 1) await new Promise((r) => setTimeout(r, 50));
    running.child.stdout!.destroy();
    const ids = [1, 2, 3].map((nonce) => add(pendingTransfer(fields({ sourceAddress: home3.keys[0]!.address, nonce }))));
    const run = await running.done;
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("standard output failed (EPIPE): stopping");
    expect(run.stderr).not.toContain("    at ");
    // Each was either submitted completely (SIGNED) or never sent (still waiting).
    for (const id of ids) expect(["SIGNED", "PENDING_SIGNATURE"]).toContain(statusOf(id).status);
    expect(double.posts.filter((p) => ids.some((id) => p.path.includes(id))).length).toBe(
      ids.filter((id) => statusOf(id).status === "SIGNED").length,
    );
  });

  it("runs once per home: a second serve beside a running one exits 1, its daily totals being one", async () => {
    const rules = rulesFile(RULES);
    const running = spawnSigner(["serve", "--rules", rules, "--poll-ms", "50"], { home, passphrase });
    let stderr = "";
    running.child.stderr!.on("data", (chunk: string) => (stderr += chunk));
    for (let i = 0; i < 400 && !stderr.includes("serving signing requests"); i += 1) await new Promise((r) => setTimeout(r, 50));
    const second = await runSigner(["serve", "--rules", rules], { home, passphrase });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain("another signer serve is running with this QC_SIGNER_HOME");
    expect((await stopSigner(running)).code).toBe(0);
  });

  it("exits 2 on a bad rules file, naming the fault, before asking anything", async () => {
    const bad: [unknown, string][] = [
      ["{", "is not JSON"],
      [{ ...RULES, types: ["TRANSFER", "DEPOSIT"] }, "types.1"],
      [{ ...RULES, maxAmountPerTransfer: { [NATIVE_SANDBOX.id]: 5 } }, "maxAmountPerTransfer"],
      [{ ...RULES, dailyLimit: { "not-an-asset": "1" } }, "dailyLimit: its keys must be asset ids"],
      [{ ...RULES, destinations: ["0x1234"] }, "destinations.0"],
      [{ ...RULES, destination: "ADDRESS_BOOK" }, "destination"],
      [{ types: ["TRANSFER"] }, "maxAmountPerTransfer"],
    ];
    const runs = await Promise.all(bad.map(([rules]) => runSigner(["serve", "--rules", rulesFile(rules)], { home })));
    runs.forEach((run, i) => {
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(bad[i]![1]);
      expect(run.stderr).not.toContain("    at ");
    });
  });
});
