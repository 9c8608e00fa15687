import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { serializeQuantumTransaction, signingHash, signOwnershipProof, verifyQuantumSigningHash } from "@qc/chain";
import { buildQuantumDeployment, findContractTemplate } from "@qc/chain/contracts";
import { createTenantFixture } from "@qc/core/testing";
import { useTestDatabase } from "@qc/db/testing";
import { useDevnet } from "@qc/devnet/testing";
import { concatHex, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { secretKeyOf, type KeyMaterial } from "../src/lib/keystore/signer-key";
import { writeProfile } from "../src/lib/profile";
import { runSigner } from "./run-signer";
import { call, startTestServer, TEST_PEPPER, type TestServer } from "./service-harness";
import { startSignerDouble, type SignerDouble } from "./signer-double";
import { prepareSignerHome } from "./signer-home";
import { eventually, startTestDaemon } from "../../web/test/identity-helpers";

const FIXED = findContractTemplate("erc20-fixed-supply")!;
const VAULT = findContractTemplate("timelock-vault")!;
const ARGS = {
  tokenName: "Quantum Dollar",
  tokenSymbol: "QD",
  tokenDecimals: "6",
  initialSupply: "1000000000000",
  initialHolder: "0x0000000000000000000000000000000000000000",
};
const FEE = { gasLimit: 900_000n, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n };

/**
 * A pending CONTRACT_DEPLOY record as the service lists it. `signed` overrides what the signing
 * request is built from (a lying service); the record always shows `shown`.
 */
function pendingDeployment(
  id: string,
  sourceAddress: string,
  shown: { templateId: string; constructorArgs: Record<string, unknown> },
  signed: { template?: typeof FIXED; constructorArgs?: Record<string, unknown>; data?: Hex } = {},
): Record<string, unknown> {
  const { transaction } = buildQuantumDeployment({
    chainId: 20804,
    nonce: 3,
    ...FEE,
    gas: FEE.gasLimit,
    template: signed.template ?? findContractTemplate(shown.templateId) ?? FIXED,
    constructorArgs: signed.constructorArgs ?? shown.constructorArgs,
  });
  if (signed.data) transaction.data = signed.data;
  return {
    id,
    tenantId: "00000000-0000-7000-8000-000000000001",
    externalId: null,
    type: "CONTRACT_DEPLOY",
    networkCode: "QUANTUM_SANDBOX",
    chainId: 20804,
    sourceWalletId: "00000000-0000-7000-8000-000000000002",
    sourceAddress,
    destinationAddress: null,
    assetId: null,
    amount: "0",
    status: "PENDING_SIGNATURE",
    subStatus: null,
    statusReason: null,
    nonce: 3,
    fee: {
      gasLimit: FEE.gasLimit.toString(),
      maxFeePerGas: FEE.maxFeePerGas.toString(),
      maxPriorityFeePerGas: FEE.maxPriorityFeePerGas.toString(),
    },
    signingHash: signingHash(transaction),
    contractAddress: null,
    deployment: shown,
    note: null,
    createdAt: "2026-11-21T10:00:00.000Z",
    updatedAt: "2026-11-21T10:00:00.000Z",
    signingRequest: {
      unsignedTransaction: serializeQuantumTransaction(transaction),
      signingHash: signingHash(transaction),
      descriptor: "0x010000",
      context: "QUANTUM-TX-v1",
    },
  };
}

describe("signer review of a contract deployment, against a test double of the service", () => {
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
  afterAll(() => double?.close());
  const postsFor = (id: string) => double.posts.filter((post) => post.path.includes(id));
  const review = (id: string, stdin: string) => runSigner(["review", id], { home, passphrase, stdin });
  const lastFour = FIXED.bytecodeHash.slice(-4);

  it(
    "shows deploy <template> v<version>, bytecode hash, constructor arguments; signs its own rebuild after the " + "typed confirmation",
    async () => {
      const id = randomUUID();
      double.transactions.push(pendingDeployment(id, source.address, { templateId: FIXED.id, constructorArgs: ARGS }));
      const run = await review(id, `${lastFour.toUpperCase()}\n`);
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(
        `deploy Fixed-supply ERC-20 v1.0.0, bytecode hash ${FIXED.bytecodeHash}, constructor arguments tokenName "Quantum Dollar", tokenSymbol "QD", tokenDecimals 6, initialSupply 1000000000000, initialHolder 0x0000000000000000000000000000000000000000 (the deploying wallet)`,
      );
      expect(run.stdout).toContain("Template      Fixed-supply ERC-20 v1.0.0 (erc20-fixed-supply), from this signer's catalog");
      expect(run.stdout).toContain("Value         0 Q (a contract creation: no destination)");
      expect(run.stdout).toContain("Nonce         3");
      expect(run.stdout).toContain("Status: SIGNED");

      const [post] = postsFor(id);
      expect(postsFor(id)).toHaveLength(1);
      const ours = buildQuantumDeployment({
        chainId: 20804,
        nonce: 3,
        ...FEE,
        gas: FEE.gasLimit,
        template: FIXED,
        constructorArgs: ARGS,
      }).transaction;
      expect(
        verifyQuantumSigningHash({ signingHash: signingHash(ours), signature: post!.body.signature, publicKey: source.publicKey }),
      ).toBe(true);
    },
  );

  it("refuses, sending nothing, when the bytes to sign are not the shown template with the shown arguments", async () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      // Another bytecode under the audited template's name.
      [
        "bytecode",
        pendingDeployment(
          randomUUID(),
          source.address,
          { templateId: FIXED.id, constructorArgs: ARGS },
          { template: VAULT, constructorArgs: { vaultBeneficiary: source.address, vaultReleaseTime: "1" } },
        ),
        /data differs: the creation bytecode is not erc20-fixed-supply v1\.0\.0/,
      ],
      // The shown arguments, but others encoded.
      [
        "arguments",
        pendingDeployment(
          randomUUID(),
          source.address,
          { templateId: FIXED.id, constructorArgs: ARGS },
          { constructorArgs: { ...ARGS, initialHolder: "0x00000000000000000000000000000000000b0b5e" } },
        ),
        /data differs: the constructor arguments encoded are not the ones shown/,
      ],
      // Extra bytes after the arguments.
      [
        "trailing bytes",
        pendingDeployment(
          randomUUID(),
          source.address,
          { templateId: FIXED.id, constructorArgs: ARGS },
          {
            data: concatHex([
              buildQuantumDeployment({
                chainId: 20804,
                nonce: 0,
                maxFeePerGas: 0n,
                maxPriorityFeePerGas: 0n,
                gas: 0n,
                template: FIXED,
                constructorArgs: ARGS,
              }).transaction.data!,
              "0x00",
            ]),
          },
        ),
        /data differs/,
      ],
      [
        "unknown template",
        pendingDeployment(
          randomUUID(),
          source.address,
          { templateId: "erc721-collection", constructorArgs: {} },
          { template: FIXED, constructorArgs: ARGS },
        ),
        /deployment\.templateId "erc721-collection" is not a template in this signer's catalog/,
      ],
      [
        "bad argument",
        pendingDeployment(
          randomUUID(),
          source.address,
          { templateId: FIXED.id, constructorArgs: { ...ARGS, initialSupply: 5 } },
          { constructorArgs: ARGS },
        ),
        /deployment\.constructorArgs\.initialSupply expected a decimal uint256 string/,
      ],
      [
        "value",
        { ...pendingDeployment(randomUUID(), source.address, { templateId: FIXED.id, constructorArgs: ARGS }), amount: "1" },
        /amount is not zero/,
      ],
    ];
    for (const [name, record, reason] of cases) {
      double.transactions.push(record);
      const run = await review(record.id as string, `${lastFour}\n`);
      expect(run.code, name).toBe(1);
      expect(run.stderr, name).toMatch(reason);
      expect(run.stderr, name).toContain("Nothing was signed or sent.");
      expect(postsFor(record.id as string), name).toEqual([]);
    }
  });

  it("sends nothing on a wrong confirmation", async () => {
    const id = randomUUID();
    double.transactions.push(pendingDeployment(id, source.address, { templateId: FIXED.id, constructorArgs: ARGS }));
    const run = await review(id, "0000\n");
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("does not match the bytecode hash's last 4 characters");
    expect(postsFor(id)).toEqual([]);
  });

  it("pending lists a deployment as a new contract of its template", async () => {
    const id = randomUUID();
    double.transactions.push(pendingDeployment(id, source.address, { templateId: FIXED.id, constructorArgs: ARGS }));
    const run = await runSigner(["pending"], { home, passphrase });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`to a new contract (template erc20-fixed-supply) from ${source.address}`);
  });
});

describe("signer review of a real deployment: server, daemon, devnet", () => {
  const t = useTestDatabase();
  const devnet = useDevnet({ blockTimeMs: 300 });
  let server: TestServer;
  let daemon: Awaited<ReturnType<typeof startTestDaemon>>;

  beforeAll(async () => {
    const config = { rpcUrls: { QUANTUM_SANDBOX: [devnet().url] } };
    server = await startTestServer({ database: t, config });
    daemon = await startTestDaemon(t.url, { config });
  });
  afterAll(async () => {
    await daemon?.stop({ timeoutMs: 5_000 });
    await server?.close();
  });

  it("the CLI rebuilds, shows and signs a timelock vault deployment, which completes on chain", async () => {
    const tenant = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    const rest = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      call(server, path, {
        method,
        headers: { authorization: tenant.authorization, ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const prepared = await prepareSignerHome({
      url: `https://127.0.0.1:${server.httpsPort}`,
      apiKey: `${tenant.keyId}:${tenant.secret}`,
      tenantId: tenant.tenantId,
      keys: 1,
    });
    writeProfile(join(prepared.home, "profile.json"), {
      url: `https://127.0.0.1:${server.httpsPort}`,
      tenantId: tenant.tenantId,
      ca: server.tls.cert,
    });
    const key = prepared.keys[0]!;
    const secretKey = secretKeyOf(key);
    const enrolled = await rest("POST", "/v1/signer/keys", {
      keys: [{ publicKey: key.publicKey, proof: signOwnershipProof({ tenantId: tenant.tenantId, address: key.address, secretKey }) }],
    });
    expect(enrolled.status, enrolled.text).toBe(201);
    const vault = (await rest("POST", "/v1/vault/accounts", { name: "Treasury", networkCode: "QUANTUM_SANDBOX" })).json() as { id: string };
    const wallet = (await rest("POST", `/v1/vault/accounts/${vault.id}/wallets/generate`, {})).json() as {
      id: string;
      address: `0x${string}`;
    };
    expect(wallet.address).toBe(key.address);
    await devnet().fund(wallet.address, 10n ** 19n);

    const beneficiary = "0x00000000000000000000000000000000000b0b5e";
    const created = await rest(
      "POST",
      "/v1/contracts/deployments",
      {
        templateId: VAULT.id,
        networkCode: "QUANTUM_SANDBOX",
        sourceWalletId: wallet.id,
        constructorArgs: { vaultBeneficiary: beneficiary, vaultReleaseTime: "1900000000" },
      },
      { "x-idempotency-key": randomUUID() },
    );
    expect(created.status, created.text).toBe(201);
    const id = created.json().id as string;
    await eventually(
      async () => ((await rest("GET", `/v1/transactions/${id}`)).json().status === "PENDING_SIGNATURE" ? true : undefined),
      30_000,
    );

    const run = await runSigner(["review", id], {
      home: prepared.home,
      passphrase: prepared.passphrase,
      stdin: `${VAULT.bytecodeHash.slice(-4)}\n`,
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      `deploy Timelocked vault v1.0.0, bytecode hash ${VAULT.bytecodeHash}, constructor arguments vaultBeneficiary ${beneficiary}, vaultReleaseTime 1900000000`,
    );
    expect(run.stdout).toContain("Status: SIGNED");

    const done = await eventually(async () => {
      const record = (await rest("GET", `/v1/transactions/${id}`)).json();
      return ["COMPLETED", "FAILED"].includes(record.status) ? record : undefined;
    }, 60_000);
    expect(done).toMatchObject({ status: "COMPLETED", contractAddress: expect.stringMatching(/^0x[0-9a-f]{40}$/) });
    const beneficiaryOnChain = await devnet()
      .publicClient()
      .readContract({ address: done.contractAddress, abi: VAULT.artifact.abi, functionName: "beneficiary" });
    expect((beneficiaryOnChain as string).toLowerCase()).toBe(beneficiary);
  });
});
