import { randomUUID } from "node:crypto";
import { buildQuantumTransfer, erc20TransferCalldata, ERC20_ABI, signingHash, verifyQuantumSigningHash } from "@qc/chain";
import { encodeFunctionData, hexToBytes, type Address, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KeyMaterial } from "../src/lib/keystore/signer-key";
import { leaks, runSigner, spawnSigner } from "./run-signer";
import {
  pendingTransfer,
  sandboxFields,
  startSignerDouble,
  type DoubleAsset,
  type SignerDouble,
  type Tampering,
  type TransferFields,
} from "./signer-double";
import { prepareSignerHome } from "./signer-home";

const TOKEN: DoubleAsset = {
  id: "0193a5c0-0000-7000-8000-00000000700c",
  networkCode: "QUANTUM_SANDBOX",
  kind: "TOKEN",
  symbol: "QUSD",
  name: "Quantum USD",
  decimals: 6,
  contractAddress: "0x00000000000000000000000000000000000070c0",
};

describe("signer review against a test double of the service", () => {
  let double: SignerDouble;
  let home: string;
  let passphrase: string;
  let source: KeyMaterial;

  beforeAll(async () => {
    double = await startSignerDouble();
    double.assets.push(TOKEN);
    const prepared = await prepareSignerHome({ url: double.url, apiKey: double.apiKey, tenantId: double.tenantId, keys: 1 });
    ({ home, passphrase } = prepared);
    source = prepared.keys[0]!;
  });
  afterAll(async () => {
    await double?.close();
    // No run of this file printed a seed, a secret key, the API secret or the passphrase.
    const { secretKeyOf } = await import("../src/lib/keystore/signer-key");
    const secretKey = secretKeyOf(source);
    expect(leaks([hexToBytes(source.seed), secretKey.slice(32, 64), double.apiKey.split(":")[1]!, passphrase])).toEqual([]);
  });
  /** The POSTs made about one transaction (each test has its own, so tests may run at once). */
  const postsFor = (id: string) => double.posts.filter((post) => post.path.includes(id));

  const review = (id: string, stdin: string) => runSigner(["review", id], { home, passphrase, stdin });
  const nativeFields = (overrides: Partial<TransferFields> = {}) =>
    sandboxFields({ id: randomUUID(), sourceAddress: source.address, ...overrides });
  const tokenFields = () =>
    nativeFields({
      asset: TOKEN,
      amount: 1_500_000n,
      fee: { gasLimit: 65_000n, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n },
    });
  const lastFour = (fields: TransferFields) => fields.destinationAddress.slice(-4);
  /** Whether a posted signature verifies, by the source's key, over the native sandbox transfer at nonce 7 with the double's fee caps. */
  const signedBySource = (post: { body: { signature: Hex } }, to: string, amount: bigint) =>
    verifyQuantumSigningHash({
      signingHash: signingHash(
        buildQuantumTransfer({
          chainId: 20804,
          nonce: 7,
          maxFeePerGas: 2_000_000_000n,
          maxPriorityFeePerGas: 1_000_000_000n,
          gas: 21_000n,
          to,
          amount,
        }),
      ),
      signature: post.body.signature,
      publicKey: source.publicKey,
    });

  it("signs a native transfer whose signing request matches, after the typed confirmation", async () => {
    const fields = nativeFields();
    double.transactions.push(pendingTransfer(fields));
    const run = await review(fields.id, `${lastFour(fields).toUpperCase()}\n`);

    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("QUANTUM_SANDBOX (chain 20804)");
    expect(run.stdout).toContain(`Destination   ${fields.destinationAddress}`);
    expect(run.stdout).toContain("Amount        1.5 Q (1500000000000000000 base units)");
    expect(run.stdout).toContain("gas limit 21000, max fee 2000000000 Qwei/gas, max priority fee 1000000000 Qwei/gas");
    expect(run.stdout).toContain("at most 0.000042 Q in fees");
    expect(run.stdout).toContain("Nonce         7");
    expect(run.stdout).toContain("Status: SIGNED");

    // The signature verifies with @qc/chain over the transfer as displayed, with the source's key.
    expect(postsFor(fields.id)).toHaveLength(1);
    const [post] = postsFor(fields.id);
    expect(post!.path).toBe(`/v1/signer/transactions/${fields.id}/signature`);
    expect(signedBySource(post!, fields.destinationAddress, fields.amount)).toBe(true);
  });

  it("signs an ERC-20 transfer and shows the decoded calldata with the token's decimals", async () => {
    const fields = tokenFields();
    double.transactions.push(pendingTransfer(fields));
    const run = await review(fields.id, `${lastFour(fields)}\n`);

    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`QUSD, token ${TOKEN.contractAddress} (6 decimals`);
    expect(run.stdout).toContain("Amount        1.5 QUSD (1500000 base units)");
    expect(run.stdout).toContain(
      `Calldata      transfer(${fields.destinationAddress}, 1.5 QUSD (1500000 base units)) on token ${TOKEN.contractAddress}`,
    );
    expect(postsFor(fields.id).map((p) => p.path)).toEqual([`/v1/signer/transactions/${fields.id}/signature`]);
    const hash = signingHash(
      buildQuantumTransfer({
        chainId: 20804,
        nonce: 7,
        maxFeePerGas: 2_000_000_000n,
        maxPriorityFeePerGas: 1_000_000_000n,
        gas: 65_000n,
        to: fields.destinationAddress,
        amount: 1_500_000n,
        token: TOKEN.contractAddress,
      }),
    );
    expect(
      verifyQuantumSigningHash({ signingHash: hash, signature: postsFor(fields.id)[0]!.body.signature, publicKey: source.publicKey }),
    ).toBe(true);
  });

  // Each signing request contradicts the record it comes with in one place; the record (what
  // the person is shown) stays the same as in the matching cases above, which were signed.
  const other = "0x000000000000000000000000000000000000e711" as Address;
  const tampered: { name: string; field: string; token?: boolean; tamper: Tampering; record?: Partial<TransferFields> }[] = [
    { name: "amount", field: "amount", tamper: { amount: 15_000_000_000_000_000_000n } },
    { name: "destination", field: "destinationAddress", tamper: { destinationAddress: other } },
    { name: "nonce", field: "nonce", tamper: { nonce: 8 } },
    { name: "max fee", field: "fee.maxFeePerGas", tamper: { fee: { maxFeePerGas: 200_000_000_000n } } },
    { name: "gas limit", field: "fee.gasLimit", tamper: { fee: { gasLimit: 1_000_000n } } },
    { name: "chain id of the signing request", field: "chainId", tamper: { chainId: 20803 } },
    { name: "chain id of the record (not the network's)", field: "chainId", tamper: { chainId: 20803 }, record: { chainId: 20803 } },
    {
      name: "calldata recipient",
      field: "destinationAddress",
      token: true,
      tamper: { data: erc20TransferCalldata({ to: other, amount: 1_500_000n }) },
    },
    {
      name: "calldata amount",
      field: "amount",
      token: true,
      tamper: { data: erc20TransferCalldata({ to: "0x00000000000000000000000000000000000b0b5e", amount: 9_000_000n }) },
    },
    {
      name: "calldata function (approve instead of transfer)",
      field: "data",
      token: true,
      tamper: { data: encodeFunctionData({ abi: ERC20_ABI, functionName: "approve", args: [other, 2n ** 255n] }) as Hex },
    },
    { name: "signing hash", field: "signingRequest.signingHash", tamper: { signingHash: `0x${"ab".repeat(32)}` } },
  ];

  for (const { name, field, token, tamper, record } of tampered) {
    it.concurrent(`refuses a signing request with another ${name}, naming ${field}, and posts nothing`, async () => {
      const fields = { ...(token ? tokenFields() : nativeFields()), ...record };
      double.transactions.push(pendingTransfer(fields, tamper));
      const run = await review(fields.id, `${lastFour(fields)}\n`);

      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(new RegExp(`^signer: refused to sign: ${field.replace(".", "\\.")} `));
      expect(run.stderr).toContain("Nothing was signed or sent.");
      expect(run.stderr).not.toContain("    at ");
      expect(run.stdout).not.toContain("Type the last 4 characters");
      expect(postsFor(fields.id)).toEqual([]);
    });
  }

  /** A NONCE_FILL or CANCELLATION record (CONTRACT §17): zero value from the source to itself, or `tamper`ed bytes. */
  const selfSend = (type: string, tamper: Tampering = {}) => {
    const fields = nativeFields({ destinationAddress: source.address, amount: 0n });
    return { fields, record: { ...pendingTransfer(fields, tamper), type, assetId: null, replacesTransactionId: null } };
  };

  it("signs a NONCE_FILL after the typed confirmation of the source's own last 4 characters; lists it as such", async () => {
    const { fields, record } = selfSend("NONCE_FILL");
    double.transactions.push(record);
    const table = await runSigner(["pending"], { home, passphrase });
    expect(table.stdout).toContain(`${fields.id}  2026-11-21T10:00:00.000Z  QUANTUM_SANDBOX  0 Q to itself (NONCE_FILL of nonce 7)`);
    const run = await review(fields.id, `${source.address.slice(-4)}\n`);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Type          NONCE_FILL: fills nonce 7");
    expect(run.stdout).toContain(`Destination   ${source.address} (the source itself)`);
    expect(run.stdout).toContain("Amount        0 Q: no value moves");
    expect(run.stdout).toContain("Type the last 4 characters of the destination address (the source itself)");
    const [post] = postsFor(fields.id);
    expect(signedBySource(post!, source.address, 0n)).toBe(true);
  });

  it("refuses a CANCELLATION whose bytes pay someone else, and a speed-up that changes the amount, posting nothing", async () => {
    const other = "0x000000000000000000000000000000000000e711" as Address;
    const { fields, record } = selfSend("CANCELLATION", { destinationAddress: other, amount: 5n });
    double.transactions.push(record);
    const cancelled = await review(fields.id, `${source.address.slice(-4)}\n`);
    expect(cancelled.code).toBe(1);
    expect(cancelled.stderr).toMatch(/^signer: refused to sign: destinationAddress differs: the cancellation shown has the source itself/);
    expect(cancelled.stderr).toContain("amount differs");
    expect(postsFor(fields.id)).toEqual([]);

    const original = nativeFields();
    const { signingRequest: _request, ...originalRecord } = pendingTransfer(original);
    double.transactions.push({ ...originalRecord, status: "BROADCASTING" });
    const raised = { ...original.fee, maxFeePerGas: 3_000_000_000n, maxPriorityFeePerGas: 2_000_000_000n };
    const speedUp = (overrides: Partial<TransferFields>) => {
      const replacement = { ...original, id: randomUUID(), fee: raised, ...overrides };
      double.transactions.push({ ...pendingTransfer(replacement), type: "REPLACEMENT", replacesTransactionId: original.id });
      return replacement;
    };
    const honest = speedUp({});
    const shown = await review(honest.id, "nope\n");
    expect(shown.stdout).toContain(`Replaces      ${original.id} (BROADCASTING): the same transfer at the same nonce`);
    expect(shown.stdout).toContain("from max fee 2000000000 Qwei/gas, max priority fee 1000000000 Qwei/gas");
    expect(shown.stdout).toContain("Verified      the transaction to sign was rebuilt here");
    const changed = speedUp({ amount: 9n * 10n ** 18n });
    const refused = await review(changed.id, `${lastFour(changed)}\n`);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`refused to sign: amount differs from the original ${original.id}`);
    expect(postsFor(honest.id)).toEqual([]);
    expect(postsFor(changed.id)).toEqual([]);
  });

  it("refuses a transaction whose source key is not in the keystore", async () => {
    const fields = nativeFields({ sourceAddress: "0x00000000000000000000000000000000000050c3" });
    double.transactions.push(pendingTransfer(fields));
    const run = await review(fields.id, `${lastFour(fields)}\n`);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("refused to sign: sourceAddress 0x00000000000000000000000000000000000050c3 is not a key in this keystore");
    expect(postsFor(fields.id)).toEqual([]);
  });

  it("sends nothing on a wrong confirmation, or when standard input ends without one", async () => {
    const fields = nativeFields();
    double.transactions.push(pendingTransfer(fields));
    const runs = await Promise.all(["0000\n", fields.destinationAddress.slice(-5, -1) + "\n", ""].map((stdin) => review(fields.id, stdin)));
    for (const run of runs) {
      expect(run.code).toBe(1);
      expect(run.stdout).toContain("Type the last 4 characters of the destination address");
      expect(run.stderr).toContain(
        "the confirmation does not match the destination address's last 4 characters; nothing was signed or sent",
      );
    }
    expect(postsFor(fields.id)).toEqual([]);
    expect(double.transactions.find((t) => t.id === fields.id)!.status).toBe("PENDING_SIGNATURE");
  });

  it("says so when the transaction is not waiting for a signature", async () => {
    const fields = nativeFields();
    double.transactions.push({ ...pendingTransfer(fields), status: "COMPLETED" });
    const done = await review(fields.id, "");
    expect(done.code).toBe(1);
    expect(done.stderr).toBe(`signer: transaction ${fields.id} is not waiting for a signature (status COMPLETED)\n`);
    const unknown = await review(randomUUID(), "");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no transaction .* is waiting for a signature/);
    const malformed = await review("not-a-uuid", "");
    expect(malformed.code).toBe(2);
  });

  it("escapes terminal control characters the service puts in displayed text", async () => {
    const fields = nativeFields();
    double.transactions.push({ ...pendingTransfer(fields), note: "ok\u001b[2A\u001b[2KDestination   0xattacker\u202e" });
    const run = await review(fields.id, "nope\n");
    expect(run.stdout).toContain("Note          ok\\u{1b}[2A\\u{1b}[2KDestination   0xattacker\\u{202e}");
    expect(run.stdout).not.toContain("\u001b");
    expect(postsFor(fields.id)).toEqual([]);
  });

  it("reject posts the reason and prints the resulting status", async () => {
    const fields = nativeFields();
    double.transactions.push(pendingTransfer(fields));
    const run = await runSigner(["reject", fields.id, "--reason", "not ours"], { home, passphrase });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Rejected. Status: REJECTED (REJECTED_BY_SIGNER)\n");
    expect(postsFor(fields.id)).toEqual([{ path: `/v1/signer/transactions/${fields.id}/reject`, body: { reason: "not ours" } }]);
    expect((await runSigner(["reject", fields.id], { home, passphrase })).code).toBe(2);
  });

  it("pending --json prints the transactions exactly as the service returns them; the table reads them", async () => {
    const native = nativeFields();
    const token = tokenFields();
    double.transactions.push(pendingTransfer(native), pendingTransfer(token));
    const json = await runSigner(["pending", "--json"], { home, passphrase });
    expect(json.code).toBe(0);
    const pending = double.transactions.filter((t) => t.status === "PENDING_SIGNATURE");
    expect(pending.map((t) => t.id)).toEqual(expect.arrayContaining([native.id, token.id]));
    expect(JSON.parse(json.stdout)).toEqual({ transactions: pending });

    const table = await runSigner(["pending"], { home, passphrase });
    expect(table.code).toBe(0);
    expect(table.stdout).toContain(
      `${native.id}  2026-11-21T10:00:00.000Z  QUANTUM_SANDBOX  1.5 Q to ${native.destinationAddress} from ${source.address}`,
    );
    expect(table.stdout).toContain(`${token.id}  2026-11-21T10:00:00.000Z  QUANTUM_SANDBOX  1.5 QUSD to ${token.destinationAddress}`);
  });

  it("watch prints each new transaction once and rings the bell, until interrupted", async () => {
    const first = nativeFields();
    double.transactions.push(pendingTransfer(first));
    const { child, done } = spawnSigner(["watch", "--interval", "1"], { home, passphrase });
    let output = "";
    child.stdout!.on("data", (chunk: string) => (output += chunk));
    const waitFor = async (text: string) => {
      for (let i = 0; i < 200 && !output.includes(text); i += 1) await new Promise((r) => setTimeout(r, 50));
      expect(output).toContain(text);
    };
    await waitFor(`review it with: signer review ${first.id}`);
    const second = nativeFields({ amount: 2n * 10n ** 18n });
    double.transactions.push(pendingTransfer(second));
    await waitFor(`review it with: signer review ${second.id}`);
    child.kill("SIGINT");
    const run = await done;
    expect(run.code).toBe(0);
    expect(run.stdout.split(`New: ${first.id}`)).toHaveLength(2);
    expect(run.stdout).toContain(`\u0007New: ${second.id}`);
    expect(run.stdout).toContain("2 Q to");
    expect(run.stdout).toContain("Stopped watching.");
    expect([...postsFor(first.id), ...postsFor(second.id)]).toEqual([]);
  });

  it("watch warns, once, about each wallet whose key is not in the keystore (a planted pool key or registration)", async () => {
    const vaultId = "0193a5c0-0000-7000-8000-00000000a017";
    const wallet = (id: string, type: string, address: string) => ({
      id: `0193a5c0-0000-7000-8000-${id}`,
      vaultId,
      type,
      address,
      publicKey: type === "WATCH_ONLY" ? null : "0x00",
      label: null,
      status: "ACTIVE",
    });
    const planted = wallet("0000000000f1", "SIGNER_MANAGED", "0x00000000000000000000000000000000000bad01");
    const registered = wallet("0000000000f2", "REGISTERED", "0x00000000000000000000000000000000000bad02");
    double.wallets.push(
      wallet("0000000000f0", "SIGNER_MANAGED", source.address.toUpperCase().replace("0X", "0x")),
      planted,
      registered,
      wallet("0000000000f3", "WATCH_ONLY", "0x00000000000000000000000000000000000bad03"),
    );
    const { child, done } = spawnSigner(["watch", "--interval", "1"], { home, passphrase });
    let errors = "";
    child.stderr!.on("data", (chunk: string) => (errors += chunk));
    for (let i = 0; i < 200 && !errors.includes(registered.id); i += 1) await new Promise((r) => setTimeout(r, 50));
    // A few more polls: each wallet is named once.
    await new Promise((r) => setTimeout(r, 2_500));
    child.kill("SIGINT");
    const run = await done;
    expect(run.code).toBe(0);
    expect(run.stderr.split("WARNING:")).toHaveLength(3);
    expect(run.stderr).toContain(
      `wallet ${planted.id} (SIGNER_MANAGED, address ${planted.address}, vault ${vaultId}) has a key this keystore does not hold`,
    );
    expect(run.stderr).toContain(`wallet ${registered.id} (REGISTERED, address ${registered.address}`);
    double.wallets.length = 0;
  });
});
