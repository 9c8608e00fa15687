import { ERC20_ABI, serializeQuantumTransaction, signingHash, signQuantumSigningHash } from "@qc/chain";
import { buildQuantumDeployment, findContractTemplate } from "@qc/chain/contracts";
import { runTransferChecks, type ServiceConfig } from "@qc/core";
import { createKeyFixture, createTenantFixture } from "@qc/core/testing";
import type { Daemon } from "@qc/daemon";
import { eq, schema } from "@qc/db";
import { findTransaction } from "@qc/db/queries";
import { useTestDatabase } from "@qc/db/testing";
import { useDevnet } from "@qc/devnet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, newSignerKey, Q, type Client } from "./custody-helpers";
import { call, startTestServer, TEST_PEPPER, type TestResponse, type TestServer } from "./harness";
import { eventually, startTestDaemon } from "./identity-helpers";
import { minedFrom, signPending, statusPath, waitForRecord, type TransactionJson } from "./transfers-back-helpers";
import { devnetConfig, fundedSource, idempotencyKey, nativeTransfer, type FundedSource } from "./transfers-front-helpers";

const FIXED = findContractTemplate("erc20-fixed-supply")!;
const ROLES = findContractTemplate("erc20-mint-burn")!;
const VAULT = findContractTemplate("timelock-vault")!;
const VAULT_ABI = VAULT.artifact.abi;

/** POST /v1/contracts/deployments with an idempotency key (null: none). */
function deploy(
  server: TestServer,
  authorization: string,
  body: unknown,
  key: string | null = idempotencyKey("deploy"),
): Promise<TestResponse> {
  return call(server, "/v1/contracts/deployments", {
    method: "POST",
    headers: { authorization, "content-type": "application/json", ...(key === null ? {} : { "x-idempotency-key": key }) },
    body: JSON.stringify(body),
  });
}

/**
 * What the reference signer does for a deployment: finds it in GET /v1/signer/transactions,
 * rebuilds the contract creation from its own catalog, the template id and the constructor
 * arguments (never from the service's bytes), refuses on any difference, and signs its own hash.
 */
async function signDeployment(api: Client, transactionId: string, secretKey: Uint8Array): Promise<TransactionJson> {
  const listed = await eventually(async () => {
    const res = await api.get("/v1/signer/transactions?status=PENDING_SIGNATURE&limit=200");
    expect(res.status, res.text).toBe(200);
    return (res.json().transactions as TransactionJson[]).find((tx) => tx.id === transactionId);
  }, 30_000);
  expect(listed).toMatchObject({ type: "CONTRACT_DEPLOY", destinationAddress: null, assetId: null, amount: "0" });
  const { transaction } = buildQuantumDeployment({
    chainId: listed.chainId,
    nonce: listed.nonce,
    maxFeePerGas: BigInt(listed.fee.maxFeePerGas),
    maxPriorityFeePerGas: BigInt(listed.fee.maxPriorityFeePerGas),
    gas: BigInt(listed.fee.gasLimit),
    template: findContractTemplate(listed.deployment.templateId)!,
    constructorArgs: listed.deployment.constructorArgs,
  });
  expect(listed.signingRequest.unsignedTransaction).toBe(serializeQuantumTransaction(transaction));
  const signature = signQuantumSigningHash({ signingHash: signingHash(transaction), secretKey });
  const res = await api.post(`/v1/signer/transactions/${transactionId}/signature`, { signature });
  expect(res.status, res.text).toBe(200);
  expect(res.json().status).toBe("SIGNED");
  return res.json();
}

describe("POST /v1/contracts/deployments through the whole pipeline (real HTTPS, daemon, devnet)", () => {
  const t = useTestDatabase();
  const devnet = useDevnet({ blockTimeMs: 300 });
  let config: Partial<ServiceConfig>;
  let server: TestServer;
  let daemon: Daemon | undefined;

  beforeAll(async () => {
    config = devnetConfig(devnet());
    server = await startTestServer({ database: t, config });
  });
  afterAll(async () => {
    await daemon?.stop({ timeoutMs: 5_000 });
    await server?.close();
  });
  const ensureDaemon = async () => {
    daemon ??= await startTestDaemon(t.url, { config });
  };
  const created = async (source: FundedSource, body: Record<string, unknown>) => {
    const res = await deploy(server, source.tenant.authorization, {
      networkCode: "QUANTUM_SANDBOX",
      sourceWalletId: source.wallet.id,
      ...body,
    });
    expect(res.status, res.text).toBe(201);
    return res.json() as TransactionJson;
  };
  const holderOf = (source: FundedSource) => ({
    tokenName: "Quantum Dollar",
    tokenSymbol: "QD",
    tokenDecimals: "6",
    initialSupply: "1000000000000",
    initialHolder: source.wallet.address,
  });

  it(
    "fails closed a deployment whose bytecode or arguments were changed in the database: " + "FAILED/SIGNATURE_MISMATCH, nothing on chain",
    async () => {
      expect(daemon, "runs before any daemon: nothing may broadcast before the rows are changed").toBeUndefined();
      // One source per case: a signed deployment holds its source's nonce slot until broadcast.
      const sources = await Promise.all([0, 1, 2].map(() => fundedSource(() => server, t.db, devnet(), 10n * Q)));
      const rows: TransactionJson[] = [];
      for (const source of sources) {
        const record = await created(source, { templateId: FIXED.id, constructorArgs: holderOf(source) });
        // The checks and the release, as the daemon's transfers.check job runs them.
        const outcome = await runTransferChecks(server.deps, { tenantId: source.tenant.tenantId, transactionId: record.id });
        expect(outcome.status).toBe("RELEASE");
        rows.push(await waitForRecord(source.api, record.id, ["PENDING_SIGNATURE"]));
      }
      const row = (i: number) => findTransaction(t.db, sources[i]!.tenant.tenantId, rows[i]!.id);
      const flipFirstBytecodeByte = (data: string) => `0x${data.slice(2, 4) === "60" ? "61" : "60"}${data.slice(4)}`;

      // 1. Signed, then one byte of the stored creation bytecode changed.
      await signDeployment(sources[0]!.api, rows[0]!.id, sources[0]!.key.secretKey);
      await t.db
        .update(schema.transactions)
        .set({ data: flipFirstBytecodeByte((await row(0))!.data!) })
        .where(eq(schema.transactions.id, rows[0]!.id));
      // 2. Signed, then the stored constructor arguments changed (and the stored bytes made to agree with them).
      await signDeployment(sources[1]!.api, rows[1]!.id, sources[1]!.key.secretKey);
      const forged = { ...(await row(1))!.constructorArgs!, initialSupply: "999999999999999" };
      await t.db
        .update(schema.transactions)
        .set({
          constructorArgs: forged,
          data: buildQuantumDeployment({
            chainId: 20804,
            nonce: 0,
            maxFeePerGas: 0n,
            maxPriorityFeePerGas: 0n,
            gas: 0n,
            template: FIXED,
            constructorArgs: forged,
          }).transaction.data!,
        })
        .where(eq(schema.transactions.id, rows[1]!.id));
      // 3. Changed before signing: never handed to a signer.
      await t.db
        .update(schema.transactions)
        .set({ data: flipFirstBytecodeByte((await row(2))!.data!) })
        .where(eq(schema.transactions.id, rows[2]!.id));
      const listing = await sources[2]!.api.get("/v1/signer/transactions?status=PENDING_SIGNATURE");
      expect((listing.json().transactions as TransactionJson[]).map((tx) => tx.id)).not.toContain(rows[2]!.id);
      expect(await waitForRecord(sources[2]!.api, rows[2]!.id, ["FAILED"])).toMatchObject({
        subStatus: "SIGNATURE_MISMATCH",
        signedAt: null,
        chainTxHash: null,
      });

      await ensureDaemon();
      for (const [i, released] of rows.slice(0, 2).entries()) {
        const failed = await waitForRecord(sources[i]!.api, released.id, ["FAILED", "BROADCASTING", "CONFIRMING", "COMPLETED"]);
        expect(failed).toMatchObject({
          status: "FAILED",
          subStatus: "SIGNATURE_MISMATCH",
          chainTxHash: null,
          broadcastAt: null,
          contractAddress: null,
        });
        // The bytes no longer are the pinned bytecode; the arguments no longer are what was released and signed.
        expect(failed.statusReason).toMatch(
          i === 0
            ? /stored creation data is not erc20-fixed-supply v1\.0\.0's pinned bytecode/
            : /no longer matches the transaction released for signing/,
        );
        expect((await row(i))!.rawTransaction).toBeNull();
      }
      // Nothing from those addresses reached the chain, mined or pending, blocks later.
      const head = await devnet().publicClient().getBlockNumber();
      await eventually(async () => (await devnet().publicClient().getBlockNumber()) >= head + 3n);
      for (const source of sources) {
        expect(await devnet().publicClient().getTransactionCount({ address: source.wallet.address, blockTag: "pending" })).toBe(0);
        expect(await devnet().publicClient().getBalance({ address: source.wallet.address })).toBe(10n * Q);
      }
    },
  );

  it(
    "deploys each template: COMPLETED with contractAddress, the tokens listed in GET /v1/assets and transferable " +
      "through POST /v1/transactions",
    async () => {
      await ensureDaemon();
      const source = await fundedSource(() => server, t.db, devnet(), 50n * Q);
      const beneficiary = newSignerKey().address;
      const releaseTime = Math.floor(Date.now() / 1000) + 3600;
      const firstNonce = await minedFrom(devnet(), source.wallet.address);
      const requests = [
        {
          templateId: FIXED.id,
          constructorArgs: { tokenName: "Quantum Dollar", tokenSymbol: "QD", tokenDecimals: "6", initialSupply: "1000000000000" },
          externalId: "deploy-fixed",
        },
        {
          templateId: ROLES.id,
          constructorArgs: {
            tokenName: "Roles Token",
            tokenSymbol: "RLT",
            tokenDecimals: "18",
            initialSupply: "5000",
            admin: source.wallet.address.toUpperCase().replace("0X", "0x"),
          },
        },
        { templateId: VAULT.id, constructorArgs: { vaultBeneficiary: beneficiary, vaultReleaseTime: String(releaseTime) } },
      ];
      const ids: string[] = [];
      for (const request of requests) {
        const record = await created(source, request);
        expect(record).toMatchObject({
          type: "CONTRACT_DEPLOY",
          status: "SUBMITTED",
          destinationAddress: null,
          assetId: null,
          amount: "0",
          contractAddress: null,
          deployment: { templateId: request.templateId },
        });
        ids.push(record.id);
      }
      // Canonical arguments stored: defaults filled in, addresses lower-case.
      expect((await source.api.get(`/v1/transactions/${ids[0]}`)).json().deployment.constructorArgs).toEqual({
        ...requests[0]!.constructorArgs,
        initialHolder: "0x0000000000000000000000000000000000000000",
      });
      expect((await source.api.get(`/v1/transactions/${ids[1]}`)).json().deployment.constructorArgs.admin).toBe(source.wallet.address);

      // One in flight per source, as for transfers: the signer signs each once it is released.
      const unsigned = new Set(ids);
      while (unsigned.size > 0) {
        const released = await eventually(async () => {
          for (const id of unsigned) {
            const record = (await source.api.get(`/v1/transactions/${id}`)).json() as TransactionJson;
            if (record.status === "PENDING_SIGNATURE") return record;
          }
          return undefined;
        }, 60_000);
        expect(released.screening).toMatchObject({ decision: "CLEAR" });
        expect(released.policy).toMatchObject({ decision: "ALLOW" });
        await signDeployment(source.api, released.id, source.key.secretKey);
        unsigned.delete(released.id);
      }
      const done = await Promise.all(ids.map((id) => waitForRecord(source.api, id, ["COMPLETED", "FAILED"])));
      for (const record of done) {
        expect(record, JSON.stringify(record)).toMatchObject({
          status: "COMPLETED",
          contractAddress: expect.stringMatching(/^0x[0-9a-f]{40}$/),
        });
        const receipt = await devnet().publicClient().getTransactionReceipt({ hash: record.chainTxHash });
        expect(receipt.to).toBeNull();
        expect(receipt.contractAddress!.toLowerCase()).toBe(record.contractAddress);
        const path = (await statusPath(source.api, record.id)).filter((s) => s !== "QUEUED");
        expect(path).toEqual(["SUBMITTED", "PENDING_SIGNATURE", "SIGNED", "BROADCASTING", "CONFIRMING", "COMPLETED"]);
      }
      // Contiguous nonces, nothing else sent from the source.
      expect(done.map((r) => r.nonce).sort()).toEqual([firstNonce, firstNonce + 1, firstNonce + 2]);
      expect(await minedFrom(devnet(), source.wallet.address)).toBe(firstNonce + 3);
      const [fixed, roles, vault] = done.map((r) => r.contractAddress as `0x${string}`) as [`0x${string}`, `0x${string}`, `0x${string}`];
      const client = devnet().publicClient();
      const tokenBalance = (token: `0x${string}`, owner: string) =>
        client.readContract({ address: token, abi: ERC20_ABI, functionName: "balanceOf", args: [owner as `0x${string}`] });

      // What is on chain is what was asked for.
      expect(await tokenBalance(fixed, source.wallet.address)).toBe(1_000_000_000_000n);
      expect(await tokenBalance(roles, source.wallet.address)).toBe(5000n);
      expect(
        await client.readContract({
          address: roles,
          abi: ROLES.artifact.abi,
          functionName: "hasRole",
          args: [`0x${"00".repeat(32)}`, source.wallet.address],
        }),
      ).toBe(true);
      expect(((await client.readContract({ address: vault, abi: VAULT_ABI, functionName: "beneficiary" })) as string).toLowerCase()).toBe(
        beneficiary,
      );
      expect(await client.readContract({ address: vault, abi: VAULT_ABI, functionName: "releaseTime" })).toBe(BigInt(releaseTime));

      // The two tokens (not the vault) are assets of the tenant on that network.
      const assets = (await source.api.get("/v1/assets?networkCode=QUANTUM_SANDBOX")).json().assets as {
        id: string;
        kind: string;
        symbol: string;
        name: string;
        decimals: number;
        contractAddress: string | null;
      }[];
      const tokens = assets.filter((a) => a.kind === "TOKEN");
      expect(
        tokens
          .map(({ symbol, name, decimals, contractAddress }) => ({ symbol, name, decimals, contractAddress }))
          .sort((a, b) => a.symbol.localeCompare(b.symbol)),
      ).toEqual([
        { symbol: "QD", name: "Quantum Dollar", decimals: 6, contractAddress: fixed },
        { symbol: "RLT", name: "Roles Token", decimals: 18, contractAddress: roles },
      ]);
      expect(assets.some((a) => a.contractAddress === vault)).toBe(false);

      // The deployed token moves through the ordinary transfer pipeline.
      const destination = newSignerKey().address;
      const qd = tokens.find((a) => a.symbol === "QD")!;
      const transfer = await source.api.createTransfer(
        nativeTransfer(source, "250000000", { destinationAddress: destination, assetId: qd.id }),
      );
      expect(transfer.status, transfer.text).toBe(201);
      await waitForRecord(source.api, transfer.json().id, ["PENDING_SIGNATURE"]);
      await signPending(source.api, transfer.json().id, source.key.secretKey, fixed);
      expect(await waitForRecord(source.api, transfer.json().id, ["COMPLETED", "FAILED"])).toMatchObject({ status: "COMPLETED" });
      expect(await tokenBalance(fixed, destination)).toBe(250_000_000n);
      expect(await tokenBalance(fixed, source.wallet.address)).toBe(1_000_000_000_000n - 250_000_000n);
    },
  );

  it("blocks by policy and by screening of the addresses among the constructor arguments", async () => {
    await ensureDaemon();
    const policed = await fundedSource(() => server, t.db, devnet(), 10n * Q);
    const rule = { id: "no-deploys-here", name: "Nothing from this vault", action: "BLOCK", match: { sourceVaultIds: [policed.vault.id] } };
    expect((await policed.api.put("/v1/policies", { defaultAction: "ALLOW", rules: [rule] })).status).toBe(200);
    const blocked = await created(policed, { templateId: FIXED.id, constructorArgs: holderOf(policed) });
    expect(await waitForRecord(policed.api, blocked.id, ["BLOCKED", "PENDING_SIGNATURE"])).toMatchObject({
      status: "BLOCKED",
      subStatus: "BLOCKED_BY_POLICY",
      policy: { decision: "BLOCK", ruleId: rule.id },
    });

    const screened = await fundedSource(() => server, t.db, devnet(), 10n * Q);
    const denied = newSignerKey().address;
    expect(
      (await screened.api.put("/v1/settings/screening-denylist", { entries: [{ address: denied, label: "sanctioned" }] })).status,
    ).toBe(200);
    const toDenied = await created(screened, {
      templateId: VAULT.id,
      constructorArgs: { vaultBeneficiary: denied, vaultReleaseTime: "1900000000" },
    });
    const refused = await waitForRecord(screened.api, toDenied.id, ["BLOCKED", "PENDING_SIGNATURE"]);
    expect(refused).toMatchObject({
      status: "BLOCKED",
      subStatus: "REJECTED_AML_SCREENING",
      screening: { provider: "denylist", decision: "BLOCKED" },
    });
    expect(refused.statusReason).toContain(`constructor argument vaultBeneficiary: destination ${denied} is on the tenant's denylist`);
    // A deployment naming no other address has no counterparty to screen.
    const own = await created(screened, { templateId: FIXED.id, constructorArgs: { ...holderOf(screened), initialHolder: undefined } });
    expect(await waitForRecord(screened.api, own.id, ["PENDING_SIGNATURE", "BLOCKED", "FAILED"])).toMatchObject({
      status: "PENDING_SIGNATURE",
      screening: { provider: "none", decision: "CLEAR" },
    });
    expect((await screened.api.post(`/v1/transactions/${own.id}/cancel`, {})).status).toBe(200);
  });

  it("refuses before anything is stored: unknown template 404, bad arguments 400 naming them, and the route's guards", async () => {
    const source = await fundedSource(() => server, t.db, undefined, 0n);
    const auth = source.tenant.authorization;
    const body = {
      templateId: FIXED.id,
      networkCode: "QUANTUM_SANDBOX",
      sourceWalletId: source.wallet.id,
      constructorArgs: holderOf(source),
    };
    const post = (b: unknown, key?: string | null) => deploy(server, auth, b, key);

    const unknown = await post({ ...body, templateId: "erc721-collection" });
    expectError(unknown, 404, "NOT_FOUND", 1030);

    const number = await post({ ...body, constructorArgs: { ...body.constructorArgs, initialSupply: 1000 } });
    expectError(number, 400, "VALIDATION_FAILED", 1001);
    expect(number.json()).toMatchObject({
      message: "constructorArgs.initialSupply: expected a decimal uint256 string",
      details: { fields: [{ path: "constructorArgs.initialSupply", message: "expected a decimal uint256 string" }] },
    });
    const several = await post({
      ...body,
      constructorArgs: { tokenName: "", tokenSymbol: "QD", tokenDecimals: "300", initialSupply: "1", extra: "x" },
    });
    expectError(several, 400, "VALIDATION_FAILED", 1001);
    expect((several.json().details.fields as { path: string }[]).map((f) => f.path)).toEqual([
      "constructorArgs.extra",
      "constructorArgs.tokenName",
      "constructorArgs.tokenDecimals",
    ]);
    const zeroBeneficiary = await post({
      ...body,
      templateId: VAULT.id,
      constructorArgs: { vaultBeneficiary: "0x0000000000000000000000000000000000000000", vaultReleaseTime: "1900000000" },
    });
    expect(zeroBeneficiary.json().details.fields).toEqual([
      { path: "constructorArgs.vaultBeneficiary", message: "must not be the zero address" },
    ]);
    expectError(await post({ ...body, constructorArgs: "not an object" }), 400, "VALIDATION_FAILED", 1001);

    expectError(await post(body, null), 400, "IDEMPOTENCY_KEY_REQUIRED", 1003);
    expectError(await post({ ...body, sourceWalletId: "0194f2c4-0000-7000-8000-00000000abcd" }), 404, "NOT_FOUND", 1030);
    expectError(await post({ ...body, networkCode: "QUANTUM_MAINNET" }), 400, "NETWORK_MISMATCH", 1106);

    // Nothing was stored by any of those.
    const listed = (await source.api.get("/v1/transactions")).json().transactions as unknown[];
    expect(listed).toEqual([]);

    // Idempotent: the same key and body answer the first 201 again.
    const key = idempotencyKey("deploy-once");
    const first = await post(body, key);
    expect(first.status, first.text).toBe(201);
    const again = await post(body, key);
    expect(again.status).toBe(201);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.json()).toEqual(first.json());
    expectError(await post({ ...body, externalId: "other" }, key), 422, "IDEMPOTENCY_KEY_MISMATCH", 1042);

    // Value-moving: write scope and a verified tenant.
    const reader = await createKeyFixture({ db: t.db, pepper: TEST_PEPPER }, source.tenant, ["read"]);
    expectError(await deploy(server, reader.authorization, body), 403, "INSUFFICIENT_SCOPE", 1020);
    const pending = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER }, { status: "PENDING_VERIFICATION" });
    expectError(await deploy(server, pending.authorization, body), 403, "TENANT_NOT_VERIFIED", 1022);
  });
});
