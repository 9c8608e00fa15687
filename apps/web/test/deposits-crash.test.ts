import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createVault, createWatchOnlyWallet, systemActor, type ServiceDeps } from "@qc/core";
import { createTenantFixture, createTestServiceDeps } from "@qc/core/testing";
import { and, asc, eq, schema } from "@qc/db";
import { findFollower, listStatusHistory } from "@qc/db/queries";
import { useTestDatabase } from "@qc/db/testing";
import { createFundedAccount, sendNative, useDevnet } from "@qc/devnet/testing";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "./identity-helpers";

const DAEMON_MAIN = fileURLToPath(new URL("../../daemon/src/main.ts", import.meta.url));
const Q = 10n ** 18n;

interface DaemonProcess {
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
}

/**
 * CONTRACT §21 across a real crash: the daemon following the sandbox is SIGKILLed inside the
 * database transaction of a block that carries a deposit (crash point
 * deposits.follow:block-written), holding the network's lease. Nothing of that block is kept;
 * another daemon takes the lease over once it runs out and records the deposit exactly once.
 */
describe("crash recovery: the chain follower SIGKILLed mid-block", () => {
  const t = useTestDatabase();
  const devnet = useDevnet();
  const dataDir = mkdtempSync(join(tmpdir(), "qc-deposits-crash-"));
  const children: ChildProcess[] = [];
  let deps: ServiceDeps & { close(): Promise<void> };

  beforeAll(async () => {
    deps = await createTestServiceDeps({ database: t, config: { rpcUrls: { QUANTUM_SANDBOX: [devnet().url] } } });
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await deps?.close();
  });

  /** The daemon as its own process, exactly as `./qc start` runs it. */
  function startDaemonProcess(env: Record<string, string>): DaemonProcess {
    const child = spawn(process.execPath, ["--import", "tsx", DAEMON_MAIN], {
      env: {
        ...process.env,
        NODE_ENV: "test",
        QC_DEV_MODE: "true",
        DATABASE_URL: t.url,
        QUANTUM_SANDBOX_RPC_URL: devnet().url,
        DATA_DIR: dataDir,
        LOG_LEVEL: "warn",
        DAEMON_HEARTBEAT_SECONDS: "60",
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    let output = "";
    child.stdout!.on("data", (chunk) => (output += chunk));
    child.stderr!.on("data", (chunk) => (output += chunk));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on("exit", (code, signal) => resolve({ code, signal })),
    );
    return { child, exited, output: () => output };
  }

  const within = <T>(promise: Promise<T>, ms: number, what: string) =>
    Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms))]);

  it("keeps nothing of the block, and the next daemon records its deposit exactly once (and screens its sender)", async () => {
    const { tenantId } = await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 9) });
    const actor = systemActor("deposits-crash-test");
    const vault = await createVault(deps, { tenantId, name: "deposits", networkCode: "QUANTUM_SANDBOX", actor });
    const wallet = await createWatchOnlyWallet(deps, {
      tenantId,
      vaultId: vault.id,
      address: `0x${randomBytes(20).toString("hex")}`,
      actor,
    });
    const sender = await createFundedAccount(devnet(), 100n * Q);
    const deposits = () =>
      t.db
        .select()
        .from(schema.transactions)
        .where(and(eq(schema.transactions.direction, "INBOUND"), eq(schema.transactions.destinationWalletId, wallet.id)))
        .orderBy(asc(schema.transactions.createdAt));

    const crashing = startDaemonProcess({ DAEMON_CRASH_AFTER: "deposits.follow:block-written", DAEMON_INSTANCE_ID: "crashing" });
    // It holds the lease and has started at the head.
    const started = await eventually(async () => {
      const row = await findFollower(t.db, "QUANTUM_SANDBOX");
      return row?.holder === "crashing" && row.blockNumber !== null ? row : undefined;
    }, 90_000);

    const hash = await sendNative(devnet(), sender, wallet.address as Address, 4n * Q);
    await devnet().mine(1);
    const exit = await within(crashing.exited, 60_000, "the crash hook");
    expect(exit, crashing.output()).toEqual({ code: null, signal: "SIGKILL" });
    // Killed inside the block's transaction: no record, the cursor still below the block, the lease still its own.
    const { blockNumber } = await devnet().publicClient().getTransactionReceipt({ hash });
    expect(await deposits()).toEqual([]);
    const cut = (await findFollower(t.db, "QUANTUM_SANDBOX"))!;
    expect(cut).toMatchObject({ holder: "crashing" });
    expect(cut.blockNumber!).toBeLessThan(Number(blockNumber));
    expect(cut.blockNumber!).toBeGreaterThanOrEqual(started.blockNumber!);

    // The next daemon also screens senders against a denylist naming this one.
    const restarted = startDaemonProcess({ DAEMON_INSTANCE_ID: "restarted", SCREENING_DENYLIST: sender.address });
    try {
      // The dead holder's lease runs out (10 s); the new daemon takes the network over from the cursor.
      const [recorded] = await eventually(async () => {
        const rows = await deposits();
        return rows.length > 0 ? rows : undefined;
      }, 90_000);
      expect(recorded).toMatchObject({
        chainTxHash: hash,
        blockNumber: Number(blockNumber),
        status: "CONFIRMING",
        amount: (4n * Q).toString(),
      });
      expect(await findFollower(t.db, "QUANTUM_SANDBOX")).toMatchObject({ holder: "restarted" });
      // Its deposits.screen job ran in that daemon: the denylisted sender is recorded, the deposit kept.
      const screened = await eventually(async () => (await deposits())[0]?.screening ?? undefined, 60_000);
      expect(screened).toMatchObject({ provider: "denylist", decision: "BLOCKED" });
      await devnet().mine(1);
      await eventually(async () => (await deposits())[0]?.status === "COMPLETED", 60_000);
    } finally {
      restarted.child.kill("SIGTERM");
      expect((await within(restarted.exited, 30_000, "graceful stop")).code, restarted.output()).toBe(0);
    }
    const rows = await deposits();
    expect(rows).toHaveLength(1);
    expect((await listStatusHistory(t.db, tenantId, rows[0]!.id)).map((h) => h.toStatus)).toEqual(["CONFIRMING", "COMPLETED"]);
    const created = await t.db
      .select()
      .from(schema.eventOutbox)
      .where(and(eq(schema.eventOutbox.aggregateId, rows[0]!.id), eq(schema.eventOutbox.type, "transaction.created")));
    expect(created).toHaveLength(1);
    // A clean stop gives the lease up.
    expect(await findFollower(t.db, "QUANTUM_SANDBOX")).toMatchObject({ holder: null });
  });
});
