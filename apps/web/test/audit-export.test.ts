import { execFile } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { request as httpsRequest } from "node:https";
import type { IncomingMessage } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { ml_dsa87 } from "@noble/post-quantum/ml-dsa.js";
import { auditRowHash, type AuditChainFields } from "@qc/core";
import { createKeyFixture, createTenantFixture, type TenantFixture } from "@qc/core/testing";
import { sql } from "@qc/db";
import { recordStatements, useTestDatabase } from "@qc/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startTestServer, TEST_PEPPER, type TestServer } from "./harness";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

type Line = Record<string, unknown> & { kind: "event" | "checkpoint"; sequence: number };

/**
 * GET `path` streamed straight into `file` (the client never holds the body): the status and
 * headers. `onResponse` runs when the head arrives, which the server sends with its first line.
 */
function download(server: TestServer, path: string, authorization: string, file: string, onResponse = () => {}) {
  return new Promise<{ status: number; headers: IncomingMessage["headers"] }>((resolve, reject) => {
    const req = httpsRequest(
      { host: "127.0.0.1", port: server.httpsPort, path, headers: { authorization }, ca: server.tls.cert, servername: "localhost" },
      (res) => {
        onResponse();
        pipeline(res, createWriteStream(file)).then(() => resolve({ status: res.statusCode ?? 0, headers: res.headers }), reject);
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** `./qc audit verify` as the CLI runs it (the same script, through node and tsx): its exit code and output. */
function auditVerify(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", "packages/sdk/scripts/audit.ts", "verify", ...args],
      { cwd: ROOT },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const readLines = async (file: string) =>
  (await readFile(file, "utf8"))
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Line);
const writeLines = (file: string, lines: Line[]) => writeFile(file, lines.map((line) => `${JSON.stringify(line)}\n`).join(""));
const eventAt = (lines: Line[], sequence: number) => lines.findIndex((line) => line.kind === "event" && line.sequence === sequence);

describe("GET /v1/audit-events/export and ./qc audit verify", () => {
  const t = useTestDatabase();
  let server: TestServer;
  let tenant: TenantFixture;
  let dir: string;
  let publicKey: string;

  beforeAll(async () => {
    server = await startTestServer({ database: t });
    tenant = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    dir = await mkdtemp(join(tmpdir(), "qc-audit-export-"));
  });
  afterAll(async () => {
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const exportTo = async (file: string, query = "", authorization = tenant.authorization, onResponse?: () => void) =>
    download(server, `/v1/audit-events/export${query}`, authorization, file, onResponse);

  it("streams the tenant's chain as NDJSON, ending on a signed checkpoint that the published key verifies", async () => {
    // Real rows, written by real requests.
    for (const name of ["Treasury", "Payroll", "Reserve"]) {
      const res = await call(server, "/v1/vault/accounts", {
        method: "POST",
        headers: { authorization: tenant.authorization, "content-type": "application/json", "x-idempotency-key": `vault-${name}` },
        body: JSON.stringify({ name, networkCode: "QUANTUM_SANDBOX" }),
      });
      expect(res.status, res.text).toBe(201);
    }
    const file = join(dir, "audit.ndjson");
    const res = await exportTo(file);
    const key = await call(server, "/v1/audit/public-key", { headers: { authorization: tenant.authorization } });
    expect(key.status, key.text).toBe(200);
    publicKey = key.json<{ publicKey: string }>().publicKey;
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("application/x-ndjson");
    const lines = await readLines(file);
    const events = lines.filter((line) => line.kind === "event");
    const [{ count }] = (await t.db.execute(sql`select count(*)::int as count from audit_events where tenant_id = ${tenant.tenantId}`))
      .rows as [{ count: number }];
    expect(events.map((line) => line.sequence)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
    expect(events.filter((line) => line.action === "vault.created")).toHaveLength(3);
    expect(Object.keys(events[0]!)).toEqual([
      "kind",
      "id",
      "tenantId",
      "sequence",
      "occurredAt",
      "action",
      "actor",
      "target",
      "details",
      "prevHash",
      "hash",
    ]);
    expect(lines.at(-1)).toMatchObject({ kind: "checkpoint", sequence: count, hash: events.at(-1)!.hash });

    const verified = await auditVerify(file, "--public-key", publicKey);
    expect(verified, verified.stderr).toMatchObject({ code: 0 });
    expect(verified.stdout).toContain(`OK: last verified sequence ${count}\n`);
    const unkeyed = await auditVerify(file);
    expect(unkeyed.code).toBe(0);
    expect(unkeyed.stdout).toContain("signatures NOT checked");
  });

  it("names the first changed, removed and reordered row, and refuses a forged checkpoint", async () => {
    const lines = await readLines(join(dir, "audit.ndjson"));
    const last = lines.filter((line) => line.kind === "event").at(-1)!.sequence;
    const vault = lines.find((line) => line.action === "vault.created")!;
    const tampered = async (name: string, edit: (copy: Line[]) => void) => {
      const copy = structuredClone(lines);
      edit(copy);
      const file = join(dir, `${name}.ndjson`);
      await writeLines(file, copy);
      return auditVerify(file, "--public-key", publicKey);
    };

    const changed = await tampered("changed", (copy) => {
      (copy[eventAt(copy, vault.sequence)]!.details as { name: string }).name = "Not Treasury";
    });
    expect(changed.code).toBe(1);
    expect(changed.stderr).toContain(`FAILED at sequence ${vault.sequence}: row ${vault.sequence} was changed`);

    const removed = await tampered("removed", (copy) => copy.splice(eventAt(copy, 2), 1));
    expect(removed.code).toBe(1);
    expect(removed.stderr).toContain("FAILED at sequence 2: row 2 is missing");

    const reordered = await tampered("reordered", (copy) => {
      const [a, b] = [eventAt(copy, 2), eventAt(copy, 3)];
      [copy[a], copy[b]] = [copy[b]!, copy[a]!];
    });
    expect(reordered.code).toBe(1);
    expect(reordered.stderr).toContain("FAILED at sequence 2:");

    // The whole chain rewritten after a changed row, and the checkpoint re-signed to match it by
    // someone without the service's key.
    const forger = ml_dsa87.keygen(new Uint8Array(32).fill(1));
    const forged = await tampered("forged", (copy) => {
      let prevHash = "0".repeat(64);
      for (const line of copy) {
        if (line.kind === "checkpoint") {
          // RFC 8785 JSON of flat strings and an integer: the keys in order, no spaces.
          const signed = { hash: prevHash, sequence: line.sequence, signedAt: line.signedAt, tenantId: line.tenantId };
          const digest = keccak_256(new TextEncoder().encode(JSON.stringify(signed)));
          const signature = ml_dsa87.sign(digest, forger.secretKey, { context: new TextEncoder().encode("QUANTUM-AUDIT-v1") });
          Object.assign(line, { hash: prevHash, signature: Buffer.from(signature).toString("hex") });
          continue;
        }
        if (line.sequence === vault.sequence) (line.details as { name: string }).name = "Not Treasury";
        line.prevHash = prevHash;
        prevHash = auditRowHash(line as unknown as AuditChainFields);
        line.hash = prevHash;
      }
    });
    expect(forged.code).toBe(1);
    expect(forged.stderr).toContain(`the checkpoint at sequence ${last} is bad: its signature does not verify`);
    expect(forged.stderr).toMatch(/^FAILED at sequence 1:/);
  });

  it("exports a part by sequence; refuses a bad range and a key without admin scope with the error body", async () => {
    const file = join(dir, "part.ndjson");
    expect((await exportTo(file, "?fromSequence=2&toSequence=3")).status).toBe(200);
    const part = await readLines(file);
    expect(part.map((line) => [line.kind, line.sequence])).toEqual([
      ["event", 2],
      ["event", 3],
    ]);
    // Not from the first row and not up to a checkpoint: the chain holds, nothing is signed.
    expect((await auditVerify(file)).code).toBe(0);
    expect((await auditVerify(file, "--public-key", publicKey)).stderr).toContain("no checkpoint in the log");

    const bad = await call(server, "/v1/audit-events/export?fromSequence=3&toSequence=2", {
      headers: { authorization: tenant.authorization },
    });
    expect(bad.status).toBe(400);
    expect(bad.headers["content-type"]).toMatch(/^application\/json/);
    expect(bad.json()).toMatchObject({ error: "VALIDATION_FAILED", requestId: expect.any(String) });
    const reader = await createKeyFixture({ db: t.db, pepper: TEST_PEPPER }, tenant, ["read"]);
    const refused = await call(server, "/v1/audit-events/export", { headers: { authorization: reader.authorization } });
    expect(refused.status).toBe(403);
    expect(refused.json()).toMatchObject({ error: "INSUFFICIENT_SCOPE" });
  });

  it("is described in the OpenAPI document as application/x-ndjson", async () => {
    const document = (await call(server, "/v1/openapi.json")).json<{
      paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
    }>();
    const ok = document.paths["/v1/audit-events/export"]!.get!.responses["200"]!;
    expect(Object.keys(ok.content ?? {})).toEqual(["application/x-ndjson"]);
    expect(ok.content!["application/x-ndjson"]).toMatchObject({
      schema: { oneOf: expect.any(Array) },
      example: expect.stringContaining('"kind":"checkpoint"'),
    });
  });

  it("streams 100,000 rows in pages, with the server's live heap far below the export's size, and they verify", async () => {
    const bulk = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    await t.db.execute(sql`
      insert into audit_events (id, tenant_id, actor_type, actor_id, action, target_type, target_id, details, created_at)
      select gen_random_uuid(), ${bulk.tenantId}, 'system', 'bulk-test', 'test.bulk_row', 'row', g::text,
             jsonb_build_object('n', g, 'note', 'a bulk audit row for the export test, number ' || g),
             now() - interval '1 hour' + g * interval '1 millisecond'
        from generate_series(1, 100000) as g`);
    const [{ count }] = (await t.db.execute(sql`select count(*)::int as count from audit_events where tenant_id = ${bulk.tenantId}`))
      .rows as [{ count: number }];

    // Live heap (after a full collection), sampled every second from the request on: sealing
    // (in batches), signing and the streamed response. An export built in memory before the first
    // byte, or buffered by the writer, would hold its whole size (55 MB of text) at some sample.
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    gc();
    const baseline = process.memoryUsage().heapUsed;
    const samples: number[] = [];
    const sampler = setInterval(() => {
      gc();
      samples.push(process.memoryUsage().heapUsed - baseline);
    }, 1000);
    const started = Date.now();
    let firstByte = 0;
    const statements = recordStatements();
    const file = join(dir, "bulk.ndjson");
    let pages: string[];
    try {
      pages = await statements.during(async () => {
        const res = await exportTo(file, "", bulk.authorization, () => (firstByte = Date.now() - started));
        expect(res.status).toBe(200);
      });
    } finally {
      clearInterval(sampler);
      statements.restore();
    }
    const seconds = (Date.now() - started) / 1000;
    const size = (await stat(file)).size;
    const pageReads = pages.filter((statement) => /order by "audit_events"\."sequence" asc limit/.test(statement));
    expect(pageReads.length).toBeGreaterThanOrEqual(Math.ceil(count / 1000));
    expect(size).toBeGreaterThan(40_000_000);
    const peak = Math.max(...samples);
    expect(samples.length).toBeGreaterThanOrEqual(5);
    expect(peak).toBeLessThan(size / 4);
    console.info(
      `audit export: ${count} rows, ${(size / 1e6).toFixed(1)} MB in ${seconds.toFixed(1)} s (first byte at ${firstByte} ms), ` +
        `${pageReads.length} page reads, live heap growth at most ${(peak / 1e6).toFixed(1)} MB over ${samples.length} samples`,
    );

    const verified = await auditVerify(file, "--public-key", publicKey);
    expect(verified, verified.stderr).toMatchObject({ code: 0 });
    expect(verified.stdout).toContain(`OK: last verified sequence ${count}\n`);
  }, 600_000);
});
