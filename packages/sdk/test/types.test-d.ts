/**
 * Type-level tests of the client against the document's types (src/openapi.ts, itself checked
 * against the live /v1/openapi.json by openapi-types.test.ts). Not run: compiled by
 * `pnpm typecheck` (this package's tsconfig includes test/), where each `@ts-expect-error` fails
 * the compile if its misuse ever type-checks, and each right call fails it if it stops to.
 */
import { createClient, QuantumCustodyError, type PageItem, type SuccessBody } from "../src/index.js";

const qc = createClient({ baseUrl: "https://custody.example.com", apiKey: "key:secret" });

/** `value` must be exactly `Expected` (neither wider, e.g. `any`, nor narrower). */
function exact<Expected>() {
  return <Actual>(value: Actual & ([Expected] extends [Actual] ? ([Actual] extends [Expected] ? unknown : never) : never)) => value;
}

// Never called: only compiled.
export async function rightCalls() {
  const vault = await qc.post("/v1/vault/accounts", { body: { name: "Treasury", networkCode: "QUANTUM_SANDBOX" } });
  exact<string>()(vault.id);
  exact<string>()(vault.name);
  const read = await qc.get("/v1/vault/accounts/{vaultAccountId}", { path: { vaultAccountId: vault.id } });
  exact<SuccessBody<"/v1/vault/accounts/{vaultAccountId}", "get">>()(read);
  const transaction = await qc.get("/v1/transactions/{transactionId}", { path: { transactionId: "t" } });
  const completed: typeof transaction.status = "COMPLETED";
  exact<string>()(transaction.id);
  const page = await qc.get("/v1/transactions", { query: { limit: 2, batchId: "b" } });
  exact<boolean>()(page.page.hasMore);
  for await (const item of qc.paginate("/v1/vault/accounts", { query: { limit: 2 } })) {
    exact<PageItem<"/v1/vault/accounts">>()(item);
    exact<"QUANTUM_MAINNET" | "QUANTUM_SANDBOX">()(item.networkCode);
  }
  await qc.post("/v1/vault/accounts", { body: { name: "Ops", networkCode: "QUANTUM_SANDBOX" }, idempotencyKey: "payout-1" });
  const error = new QuantumCustodyError({ error: "NOT_FOUND", code: 1030, status: 404, requestId: "r", message: "m" });
  exact<string | undefined>()(error.requestId);
  return completed;
}

// Never called: only compiled. Every line below must be refused by the compiler.
export async function wrongCalls() {
  // @ts-expect-error a path the document does not have
  await qc.get("/v1/vaults");
  // @ts-expect-error a path of another method (the list is GET and POST, not DELETE)
  await qc.delete("/v1/vault/accounts");
  // @ts-expect-error a body field the route does not take
  await qc.post("/v1/vault/accounts", { body: { name: "Treasury", networkCode: "QUANTUM_SANDBOX", colour: "red" } });
  // @ts-expect-error a required body field missing
  await qc.post("/v1/vault/accounts", { body: { name: "Treasury" } });
  // @ts-expect-error a body field of the wrong type
  await qc.post("/v1/vault/accounts", { body: { name: 42, networkCode: "QUANTUM_SANDBOX" } });
  // @ts-expect-error the required body left out
  await qc.post("/v1/vault/accounts");
  // @ts-expect-error a path parameter missing
  await qc.get("/v1/vault/accounts/{vaultAccountId}", { path: {} });
  // @ts-expect-error a path parameter under the wrong name
  await qc.get("/v1/transactions/{transactionId}", { path: { id: "t" } });
  // @ts-expect-error a query parameter the list does not have
  await qc.get("/v1/transactions", { query: { pageSize: 2 } });
  // @ts-expect-error a list that is not paginated
  qc.paginate("/v1/transactions/{transactionId}", { path: { transactionId: "t" } });

  // @ts-expect-error a status the contract does not have
  const done: SuccessBody<"/v1/transactions/{transactionId}", "get">["status"] = "DONE";
  const vault = await qc.get("/v1/vault/accounts/{vaultAccountId}", { path: { vaultAccountId: "v" } });
  void done;
  // @ts-expect-error a response field the answer does not have
  void vault.colour;
  // @ts-expect-error a response field used as the wrong type
  exact<number>()(vault.name);
  for await (const item of qc.paginate("/v1/vault/accounts")) {
    // @ts-expect-error the page's items, not the page
    void item.page;
  }
}
