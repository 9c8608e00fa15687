import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appRouter } from "@qc/api";
import { useTestDatabase } from "@qc/db/testing";
import { createRouteTable } from "../src/http/routes";
import { call, startTestServer, type TestServer } from "./harness";

/**
 * An integrator's program against the client types generated from the served document: typed
 * request bodies, the declared success statuses (201 on create, 202 on resend), the flat error
 * body on the statuses that carry it, path and query parameters.
 */
const CLIENT_PROGRAM = `
import type { components, paths } from "./api";

type Method = "get" | "post" | "put";
type Operation<P extends keyof paths, M extends Method> = paths[P][M] extends infer O ? (O extends { responses: unknown } ? O : never) : never;
type JsonOf<R> = R extends { content: { "application/json": infer T } } ? T : never;
type Answer<O extends { responses: unknown }> = { [S in keyof O["responses"]]: { status: S; body: JsonOf<O["responses"][S]> } }[keyof O["responses"]];

declare function request<P extends keyof paths, M extends Method>(
  method: M,
  path: P,
  init: { params?: Operation<P, M> extends { parameters: infer Q } ? Q : never; body?: Operation<P, M> extends { requestBody?: { content: { "application/json": infer B } } } ? B : never },
): Promise<Answer<Operation<P, M>>>;

type ApiError = components["schemas"]["Error"];
const describeError = (error: ApiError): string => \`\${error.error} (\${error.code}) \${error.message} [\${error.requestId}]\`;

export async function createVaultAndWallet(): Promise<string> {
  const created = await request("post", "/v1/vault/accounts", { body: { name: "Treasury", networkCode: "QUANTUM_SANDBOX", metadata: { desk: "treasury" } } });
  if (created.status !== 201) return describeError(created.body as ApiError);
  const vaultId: string = created.body.id;
  const listed = await request("get", "/v1/vault/accounts", { params: { query: { limit: 10, networkCode: "QUANTUM_MAINNET" } } });
  if (listed.status === 200) listed.body.vaults.forEach((vault) => vault.networkCode satisfies "QUANTUM_MAINNET" | "QUANTUM_SANDBOX");
  const wallet = await request("post", "/v1/vault/accounts/{vaultAccountId}/wallets/generate", { params: { path: { vaultAccountId: vaultId } }, body: { label: "hot" } });
  switch (wallet.status) {
    case 201:
      return wallet.body.address;
    case 409:
      return wallet.body.error === "NO_SIGNER_KEY_AVAILABLE" ? "enroll keys first" : describeError(wallet.body);
    case 429:
      return \`retry later: \${wallet.body.message}\`;
    default:
      return "other";
  }
}

export async function resend(): Promise<"ACCEPTED"> {
  const answer = await request("post", "/v1/signup/resend-verification", { body: { email: "alice@example.com" } });
  const accepted: 202 | 400 | 413 | 415 | 500 | 503 = answer.status;
  if (accepted === 202 && answer.status === 202) return answer.body.status;
  throw new Error("unexpected");
}
`;

/** The same client used wrongly: each line must be refused by the compiler. */
const MISUSES = {
  unknownNetwork: `request("post", "/v1/vault/accounts", { body: { name: "x", networkCode: "ETHEREUM" } });`,
  createdIsNot200: `type Created = paths["/v1/vault/accounts"]["post"]["responses"][200];`,
  resendIsNot200: `type Resent = paths["/v1/signup/resend-verification"]["post"]["responses"][200];`,
  unknownErrorName: `const e: components["schemas"]["Error"]["error"] = "TEAPOT";`,
  wrongPathParam: `request("get", "/v1/wallets/{walletId}", { params: { path: { vaultAccountId: "x" } } });`,
};

interface Diagnostic {
  line: number;
  message: string;
}

function typeCheck(files: Record<string, string>): Diagnostic[] {
  const dir = mkdtempSync(join(tmpdir(), "qc-openapi-client-"));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const program = ts.createProgram([join(dir, "program.ts")], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ["lib.es2022.d.ts"],
      types: [],
      noUnusedLocals: false,
    });
    return ts.getPreEmitDiagnostics(program).map((d) => ({
      line: d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0,
      message: `${d.file?.fileName.slice(dir.length + 1) ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`,
    }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("/v1/openapi.json", () => {
  const t = useTestDatabase();
  let server: TestServer;
  let document: Record<string, any>;
  beforeAll(async () => {
    server = await startTestServer({ database: t });
    const res = await call(server, "/v1/openapi.json");
    expect(res.status).toBe(200);
    document = res.json();
  });
  afterAll(() => server?.close());

  it("is a valid OpenAPI 3.1 document whose errors are the contract's body", async () => {
    expect(document.openapi).toMatch(/^3\.1\./);
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
    expect(document.components.schemas.Error.required).toEqual(["error", "code", "message", "requestId"]);
    for (const item of Object.values<Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>(
      document.paths,
    )) {
      for (const operation of Object.values(item)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          if (Number(status) >= 400) expect(response.content?.["application/json"]?.schema).toEqual({ $ref: "#/components/schemas/Error" });
        }
      }
    }
  });

  it("documents exactly the routes the server dispatches, and their credentials", () => {
    const documented = Object.entries<Record<string, { security?: unknown[] }>>(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(
        ([method, operation]) => `${method.toUpperCase()} ${path}${operation.security?.length ? " (credentials)" : ""}`,
      ),
    );
    const served = createRouteTable(appRouter).routes.map(
      (route) => `${route.method} ${route.template}${route.needsCredentials ? " (credentials)" : ""}`,
    );
    expect(served.sort()).toEqual(documented.sort());
  });

  it("matches /v1 paths case-sensitively, with or without a trailing slash", async () => {
    expect((await call(server, "/v1/Vault/accounts")).json()).toMatchObject({ error: "NOT_FOUND" });
    expect((await call(server, "/v1/VAULT/ACCOUNTS")).status).toBe(404);
    expect((await call(server, "/v1/vault/accounts/")).json()).toMatchObject({ error: "UNAUTHENTICATED" });
  });

  it("is rejected by the validator when broken (the check can fail)", async () => {
    const broken = structuredClone(document);
    broken.paths["/v1/broken"] = { get: { responses: "not an object" } };
    const result = await new Validator().validate(broken);
    expect(result.valid).toBe(false);
  });

  it("generates a TypeScript client that an integrator's program type-checks against", async () => {
    const api = astToString(await openapiTS(structuredClone(document) as never));
    expect(api).toContain('"/v1/vault/accounts/{vaultAccountId}/wallets/generate"');
    expect(typeCheck({ "api.d.ts": api, "program.ts": CLIENT_PROGRAM })).toEqual([]);

    // The same compiler refuses each misuse, on its own line, so the check above can fail.
    const header = CLIENT_PROGRAM.split("export async function")[0]!;
    const misuses = Object.entries(MISUSES);
    const program = `${header}\nexport function misuse() {\n${misuses.map(([, line]) => line).join("\n")}\n}\n`;
    const firstLine = header.split("\n").length + 2;
    const diagnostics = typeCheck({ "api.d.ts": api, "program.ts": program });
    misuses.forEach(([name], index) => {
      expect(
        diagnostics.filter((d) => d.line === firstLine + index).map((d) => d.message),
        name,
      ).not.toEqual([]);
    });
    expect(
      diagnostics.every((d) => d.line >= firstLine && d.line < firstLine + misuses.length),
      "no other diagnostic",
    ).toBe(true);
  });
});
