import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, test } from "vitest";
import { startLocalDevnets } from "../src/index";
import { rpcCall } from "../src/testing";

const dataDir = mkdtempSync(join(tmpdir(), "qc-devnets-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("embedded default: one devnet per network whose RPC URL is unset", () => {
  test("starts only the missing ones and reports every URL", async () => {
    const local = await startLocalDevnets({
      env: { QUANTUM_MAINNET_RPC_URL: "https://rpc.example.invalid,https://rpc2.example.invalid", QUANTUM_SANDBOX_RPC_URL: "" },
      dataDir,
      ports: { QUANTUM_SANDBOX: 0 },
      blockTimeMs: 0,
    });
    try {
      expect(Object.keys(local.devnets)).toEqual(["QUANTUM_SANDBOX"]);
      expect(local.rpcUrls.QUANTUM_MAINNET_RPC_URL).toBe("https://rpc.example.invalid,https://rpc2.example.invalid");
      expect(await rpcCall(local.rpcUrls.QUANTUM_SANDBOX_RPC_URL, "eth_chainId")).toBe("0x5144");
    } finally {
      await local.close();
    }
  });
});

describe("CLI", () => {
  test("prints the URL, answers curl-style JSON-RPC, exits cleanly on SIGTERM", async () => {
    const main = fileURLToPath(new URL("../src/main.ts", import.meta.url));
    const child = spawn(process.execPath, ["--import", "tsx", main, "--chain-id", "20803", "--port", "0", "--block-time", "100"], {
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        const match = /http:\/\/127\.0\.0\.1:\d+/.exec(output);
        if (match) resolve(match[0]);
      });
      child.once("exit", (code) => reject(new Error(`devnet exited with ${code}: ${output}`)));
    });
    try {
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}',
      });
      expect(await res.json()).toEqual({ jsonrpc: "2.0", id: 1, result: "0x5143" });
    } finally {
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    }
  });
});
