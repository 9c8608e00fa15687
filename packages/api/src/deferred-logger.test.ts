import { Writable } from "node:stream";
import pino from "pino";
import { describe, expect, it, vi } from "vitest";
import { deferredChild } from "./deferred-logger";

function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { log: pino({ level: "info", redact: { paths: ["secret"], censor: "[redacted]" } }, destination), lines };
}

describe("deferredChild", () => {
  it("makes no child logger until something logs", () => {
    const { log } = capturingLogger();
    const child = vi.spyOn(log, "child");
    deferredChild(log, { requestId: "r-1" });
    expect(child).not.toHaveBeenCalled();
  });

  it("logs exactly as pino's child would: bindings, nested children, redaction, level", () => {
    const { log, lines } = capturingLogger();
    const request = deferredChild(log, { requestId: "r-1" });
    const tenant = deferredChild(request, { tenantId: "t-1" });
    tenant.info({ secret: "s3cret", n: 1 }, "hello");
    tenant.debug("not at info level");
    request.child({ jobId: "j-1" }).warn("direct child");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ requestId: "r-1", tenantId: "t-1", secret: "[redacted]", n: 1, msg: "hello", level: 30 });
    expect(lines[1]).toMatchObject({ requestId: "r-1", jobId: "j-1", msg: "direct child", level: 40 });
    expect(lines[1]).not.toHaveProperty("tenantId");
    expect(tenant.isLevelEnabled("info")).toBe(true);
    expect(tenant.level).toBe("info");
  });

  it("changes only its own level, not its parent's", () => {
    const { log, lines } = capturingLogger();
    const request = deferredChild(log, { requestId: "r-1" });
    request.level = "error";
    request.info("dropped");
    log.info("kept");
    expect(lines.map((line) => line.msg)).toEqual(["kept"]);
  });
});
