import { spawn } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { AppError } from "@qc/core";
import { isRequestScopedError } from "./process-errors";

const WEB_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..");

describe("isRequestScopedError", () => {
  it("keeps the process for what one request's input or socket raises", () => {
    let invalidUrl: unknown;
    try {
      new URL("http://[");
    } catch (error) {
      invalidUrl = error;
    }
    let malformedUri: unknown;
    try {
      decodeURIComponent("%");
    } catch (error) {
      malformedUri = error;
    }
    for (const error of [
      invalidUrl,
      malformedUri,
      new AppError("VALIDATION_FAILED", "x"),
      Object.assign(new Error("reset"), { code: "ECONNRESET" }),
    ]) {
      expect(isRequestScopedError(error), String(error)).toBe(true);
    }
  });

  it("does not for anything that may have broken shared state", () => {
    for (const error of [
      new TypeError("cannot read properties of undefined"),
      new RangeError("Maximum call stack size exceeded"),
      Object.assign(new Error("pool"), { code: "57P01" }),
      undefined,
      null,
      "string",
    ]) {
      expect(isRequestScopedError(error), String(error)).toBe(false);
    }
  });
});

describe("installProcessErrorHandlers", () => {
  // A real process each, so Node's own default (exit 1 on an unhandled rejection) is what is overridden.
  const run = (body: string) =>
    new Promise<{ code: number | null; output: string }>((resolve) => {
      const script = `import { createLogger } from "@qc/core"; import { installProcessErrorHandlers } from "./src/process-errors.ts";
        installProcessErrorHandlers(createLogger("t", "error")); ${body}`;
      const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
        cwd: WEB_DIR,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.on("data", (c: Buffer) => (output += c.toString()));
      child.stderr.on("data", (c: Buffer) => (output += c.toString()));
      child.on("exit", (code) => resolve({ code, output }));
    });

  it("logs an unhandled rejection and a request-scoped uncaught exception, and keeps serving", async () => {
    const { code, output } = await run(`Promise.reject(new Error("nobody awaited this"));
      setTimeout(() => new URL("http://["), 10);
      setTimeout(() => { console.log("still alive"); process.exit(0); }, 200);`);
    expect(code).toBe(0);
    expect(output).toContain("unhandled promise rejection (kept serving)");
    expect(output).toContain("uncaught exception from one request (kept serving)");
    expect(output).toContain("still alive");
  });

  it("exits 1 on any other uncaught exception, for the supervisor to restart", async () => {
    const { code, output } = await run(`setTimeout(() => { throw new TypeError("shared state broken"); }, 10);
      setTimeout(() => { console.log("still alive"); process.exit(0); }, 500);`);
    expect(code).toBe(1);
    expect(output).toContain("exiting for the supervisor to restart");
    expect(output).not.toContain("still alive");
  });
});
