import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { findTransaction } from "@qc/db/queries";
import { useTestDatabase } from "@qc/db/testing";
import { useDevnet } from "@qc/devnet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Q } from "./custody-helpers";
import { startTestServer, type TestServer } from "./harness";
import { minedFrom, signPending, statusChanges, statusPath, waitForRecord } from "./transfers-back-helpers";
import { devnetConfig, fundedSource, nativeTransfer } from "./transfers-front-helpers";

const DAEMON_MAIN = fileURLToPath(new URL("../../daemon/src/main.ts", import.meta.url));

interface DaemonProcess {
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
}

describe("crash recovery: the daemon SIGKILLed right after eth_sendRawTransaction, before recording the send", () => {
  const t = useTestDatabase();
  const devnet = useDevnet({ blockTimeMs: 300 });
  const dataDir = mkdtempSync(join(tmpdir(), "qc-recovery-"));
  const children: ChildProcess[] = [];
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ database: t, config: devnetConfig(devnet()) });
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await server?.close();
  });

  /** The daemon as its own process, exactly as `./qc start` runs it. */
  function startDaemonProcess(env: Record<string, string>): DaemonProcess {
    const child = spawn(process.execPath, ["--import", "tsx", DAEMON_MAIN], {
      env: {
        ...process.env,
        NODE_ENV: "test",
        // The crash hook is a development-mode setting (and the daemon then needs no secrets).
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

  it("refuses the crash hook in production", async () => {
    // Production is the absence of the opt-in, whatever NODE_ENV says (here still "test").
    const refused = startDaemonProcess({ QC_DEV_MODE: "false", DAEMON_CRASH_AFTER: "transfers.broadcast:sent" });
    const exit = await within(refused.exited, 60_000, "daemon exit");
    expect(exit.code).not.toBe(0);
    expect(refused.output()).toContain("DAEMON_CRASH_AFTER is a test hook and is refused in production");
  });

  it("restarts into exactly one transaction on chain and COMPLETED once", async () => {
    const crashing = startDaemonProcess({ DAEMON_CRASH_AFTER: "transfers.broadcast:sent", DAEMON_INSTANCE_ID: "crashing" });
    const source = await fundedSource(() => server, t.db, devnet(), 10n * Q);
    const created = await source.api.createTransfer(nativeTransfer(source, 3n * Q));
    expect(created.status, created.text).toBe(201);
    const released = await waitForRecord(source.api, created.json().id, ["PENDING_SIGNATURE"], 90_000);
    await signPending(source.api, released.id, source.key.secretKey);

    const exit = await within(crashing.exited, 60_000, "the crash hook");
    expect(exit, crashing.output()).toEqual({ code: null, signal: "SIGKILL" });
    // Killed between the send and its record: BROADCASTING, the raw transaction stored, no send counted, the node has it.
    const cut = (await findTransaction(t.db, source.tenant.tenantId, released.id))!;
    expect(cut).toMatchObject({ status: "BROADCASTING", sendAttempts: 0, rawTransaction: expect.stringMatching(/^0x51/) });
    expect(await devnet().rpc("eth_getTransactionByHash", [cut.chainTxHash])).toMatchObject({ hash: cut.chainTxHash });

    const restarted = startDaemonProcess({ DAEMON_INSTANCE_ID: "restarted" });
    try {
      const done = await waitForRecord(source.api, released.id, ["COMPLETED", "FAILED"], 90_000);
      expect(done, restarted.output()).toMatchObject({ status: "COMPLETED", chainTxHash: cut.chainTxHash });
    } finally {
      restarted.child.kill("SIGTERM");
      expect((await within(restarted.exited, 30_000, "graceful stop")).code).toBe(0);
    }
    expect(await minedFrom(devnet(), source.wallet.address)).toBe(released.nonce + 1);
    expect(
      (
        await devnet()
          .publicClient()
          .getTransactionReceipt({ hash: cut.chainTxHash as `0x${string}` })
      ).status,
    ).toBe("success");
    expect(await statusPath(source.api, released.id)).toEqual([
      "SUBMITTED",
      "PENDING_SIGNATURE",
      "SIGNED",
      "BROADCASTING",
      "CONFIRMING",
      "COMPLETED",
    ]);
    expect((await statusChanges(t.db, released.id)).filter((change) => change.to === "COMPLETED")).toHaveLength(1);
  });
});
