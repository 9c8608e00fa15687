import {
  addressFromPublicKey,
  APPROVAL_CONTEXT,
  approvalHash,
  buildQuantumTransfer,
  getQuantumTransactionHash,
  MLDSA87_DESCRIPTOR,
  serializeQuantumTransaction,
  signingHash,
  TRANSACTION_SIGNATURE_CONTEXT,
  verifyApproval,
  verifyOwnershipProof,
  verifyQuantumSigningHash,
  type QuantumTransactionSerializable,
} from "@qc/chain";
import type { Hex } from "viem";
import { z } from "zod";
import { approvalFieldsOf } from "../approvals/approval-fields";
import { recordIntentShape, uint256 } from "../service/schemas";

/** One check of a transaction's evidence: what was checked, whether it holds, and why. */
export type EvidenceCheck = { name: string; ok: boolean; detail: string };

const decision = z.looseObject({ decision: z.string() });

/** The evidence document `GET /v1/transactions/{id}/evidence` returns (CONTRACT §19), as far as the checks read it. */
export const evidenceSchema = z.object({
  transaction: z.looseObject({
    ...recordIntentShape,
    tenantId: z.string(),
    nonce: z.number().int().nullable(),
    fee: z.object({ gasLimit: uint256, maxFeePerGas: uint256, maxPriorityFeePerGas: uint256 }).nullable(),
    signingHash: z.string().nullable(),
    chainTxHash: z.string().nullable(),
    blockNumber: z.number().int().nullable(),
    policy: decision.nullable(),
    screening: decision.nullable(),
    approvals: z
      .object({
        required: z.array(z.object({ groupId: z.string(), quorum: z.number().int() })),
        decisions: z.array(
          z.looseObject({ userId: z.string(), decision: z.string(), groupIds: z.array(z.string()), keyId: z.string().nullable() }),
        ),
      })
      .nullable(),
  }),
  policy: decision.nullable(),
  screening: decision.nullable(),
  asset: z.looseObject({ id: z.string(), contractAddress: z.string().nullable() }).nullable(),
  approvals: z.array(
    z.object({ userId: z.string(), keyId: z.string(), publicKey: z.string(), approvalHash: z.string(), signature: z.string() }),
  ),
  signingRequest: z
    .object({ unsignedTransaction: z.string(), signingHash: z.string(), descriptor: z.string(), context: z.string() })
    .nullable(),
  signature: z.string().nullable(),
  signerKey: z.object({ address: z.string(), publicKey: z.string().nullable(), ownershipProof: z.string().nullable() }),
  receipt: z
    .object({
      transactionHash: z.string(),
      blockNumber: z.number().int(),
      blockHash: z.string().nullable(),
      status: z.string(),
      confirmations: z.number().int().optional(),
    })
    .nullable(),
});
export type Evidence = z.infer<typeof evidenceSchema>;

const lower = (value: string | null | undefined) => (typeof value === "string" ? value.toLowerCase() : value);
const same = (a: string | null | undefined, b: string | null | undefined) => a !== null && a !== undefined && lower(a) === lower(b);
const json = (value: unknown) => JSON.stringify(value ?? null);

/** Statuses whose transaction the chain mined successfully; FAILED/REVERTED_ON_CHAIN was mined and reverted. */
const MINED_OK = ["CONFIRMING", "COMPLETED"];

/**
 * Re-checks a transaction's evidence (CONTRACT §19) offline, trusting nothing in it but the
 * protocol: each approval's `approvalHash` rebuilt from the intent and its ML-DSA-87 signature
 * (context QUANTUM-APPROVAL-v1) under its key, the quorum the record required met by those
 * approvals, the unsigned transaction and signing hash rebuilt from the intent, the transaction
 * signature (QUANTUM-TX-v1) under the signer key, that key being the source address's with a
 * valid ownership proof (QUANTUM-OWNERSHIP-v1) for this tenant, the transaction hash recomputed
 * from the raw signed transaction, and the receipt agreeing with it. Every check is returned, in
 * this order; the evidence holds only when every one is `ok`.
 */
export function verifyEvidence(input: unknown): EvidenceCheck[] {
  const parsed = evidenceSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return [{ name: "format", ok: false, detail: `not transaction evidence: ${issue.path.join(".") || "(root)"} ${issue.message}` }];
  }
  const evidence = parsed.data;
  const checks: EvidenceCheck[] = [{ name: "format", ok: true, detail: "a transaction's evidence" }];
  const check = (name: string, ok: boolean, detail: string) => checks.push({ name, ok, detail });
  const tx = evidence.transaction;

  check(
    "policy",
    json(evidence.policy) === json(tx.policy) && evidence.policy !== null,
    `decision ${evidence.policy?.decision ?? "missing"}, as the record states`,
  );
  check(
    "screening",
    json(evidence.screening) === json(tx.screening) && evidence.screening !== null,
    `decision ${evidence.screening?.decision ?? "missing"}, as the record states`,
  );
  checkApprovals(evidence, check);

  const rebuilt = rebuildTransaction(evidence, check);
  const publicKey = evidence.signerKey.publicKey;
  const signed = rebuilt !== null && publicKey !== null && evidence.signature !== null;
  check(
    "signature",
    signed &&
      verifyQuantumSigningHash({ signingHash: signingHash(rebuilt), signature: evidence.signature as Hex, publicKey: publicKey as Hex }),
    evidence.signature === null
      ? "the transaction is not signed"
      : "ML-DSA-87 (QUANTUM-TX-v1) over the rebuilt signing hash, under signerKey.publicKey",
  );
  checkSignerKey(evidence, check);
  checkChainHash(evidence, signed ? rawHash(rebuilt, evidence.signature as Hex, publicKey as Hex) : null, check);
  return checks;
}

type Check = (name: string, ok: boolean, detail: string) => void;

function checkApprovals(evidence: Evidence, check: Check): void {
  const tx = evidence.transaction;
  let expected: Hex | null = null;
  try {
    expected = approvalHash(approvalFieldsOf(tx));
  } catch (error) {
    check("approval hash", false, `the intent cannot be hashed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const verified = new Set<string>();
  evidence.approvals.forEach((approval, i) => {
    const name = `approval ${i + 1} (member ${approval.userId})`;
    const recorded = tx.approvals?.decisions.find((d) => d.userId === approval.userId);
    if (!same(approval.approvalHash, expected)) {
      check(name, false, `approvalHash ${approval.approvalHash} is not the hash of the transaction's intent (${expected ?? "none"})`);
    } else if (!verifyApproval({ approvalHash: approval.approvalHash, signature: approval.signature, publicKey: approval.publicKey })) {
      check(name, false, `the signature does not verify under key ${approval.keyId} (ML-DSA-87, ${APPROVAL_CONTEXT})`);
    } else if (!recorded || recorded.decision !== "APPROVED" || recorded.keyId !== approval.keyId) {
      check(name, false, `the record holds no APPROVED decision of this member with key ${approval.keyId}`);
    } else {
      verified.add(approval.userId);
      check(name, true, `${APPROVAL_CONTEXT} signature over the intent's approvalHash, key ${approval.keyId}`);
    }
  });
  const required = tx.approvals?.required ?? [];
  if (required.length === 0) {
    const ok = tx.policy?.decision !== "REQUIRE_APPROVAL";
    check("quorum", ok, ok ? "no approval was required" : "the policy required approval but the record lists no required group");
    return;
  }
  const short = required.filter((group) => {
    const approvers = (tx.approvals?.decisions ?? []).filter((d) => verified.has(d.userId) && d.groupIds.includes(group.groupId));
    return approvers.length < group.quorum;
  });
  check(
    "quorum",
    short.length === 0,
    short.length === 0
      ? `every required group reached its quorum with verified approvals (${required.map((g) => `${g.groupId}: ${g.quorum}`).join(", ")})`
      : `group ${short[0]!.groupId} lacks verified approvals for its quorum of ${short[0]!.quorum}`,
  );
}

/** The unsigned transaction rebuilt from the intent, compared with the signing request; null when it cannot be. */
function rebuildTransaction(evidence: Evidence, check: Check): QuantumTransactionSerializable | null {
  const tx = evidence.transaction;
  const request = evidence.signingRequest;
  const fail = (detail: string) => {
    check("signing request", false, detail);
    return null;
  };
  if (!request) return fail("the transaction was never released for signing");
  if (tx.type !== "TRANSFER") return fail(`a ${tx.type} cannot be rebuilt from its intent by this verifier`);
  if (tx.nonce === null || tx.fee === null || tx.destinationAddress === null)
    return fail("the record has no nonce, fee caps or destination");
  if (!evidence.asset || evidence.asset.id !== tx.assetId)
    return fail(`the evidence's asset is not the transaction's asset ${tx.assetId ?? "(none)"}`);
  if (request.context !== TRANSACTION_SIGNATURE_CONTEXT || lower(request.descriptor) !== MLDSA87_DESCRIPTOR) {
    return fail(
      `context ${request.context} / descriptor ${request.descriptor} is not ${TRANSACTION_SIGNATURE_CONTEXT} / ${MLDSA87_DESCRIPTOR}`,
    );
  }
  let rebuilt: QuantumTransactionSerializable;
  try {
    rebuilt = buildQuantumTransfer({
      chainId: tx.chainId,
      nonce: tx.nonce,
      maxFeePerGas: BigInt(tx.fee.maxFeePerGas),
      maxPriorityFeePerGas: BigInt(tx.fee.maxPriorityFeePerGas),
      gas: BigInt(tx.fee.gasLimit),
      to: tx.destinationAddress,
      amount: BigInt(tx.amount),
      token: evidence.asset.contractAddress,
    });
  } catch (error) {
    return fail(`the intent cannot be encoded: ${error instanceof Error ? error.message : String(error)}`);
  }
  const hash = signingHash(rebuilt);
  if (!same(request.unsignedTransaction, serializeQuantumTransaction(rebuilt))) {
    return fail("unsignedTransaction is not the transaction rebuilt from the intent (destination, amount, asset, nonce, fee caps, chain)");
  }
  if (!same(request.signingHash, hash) || !same(tx.signingHash, hash))
    return fail(`signingHash is not ${hash}, the hash of the rebuilt transaction`);
  check("signing request", true, `unsigned transaction and signing hash ${hash} rebuilt from the intent`);
  return rebuilt;
}

function checkSignerKey(evidence: Evidence, check: Check): void {
  const tx = evidence.transaction;
  const { publicKey, ownershipProof, address } = evidence.signerKey;
  let derived: string | null;
  try {
    derived = publicKey === null ? null : addressFromPublicKey(publicKey as Hex);
  } catch {
    derived = null;
  }
  check(
    "signer key",
    derived !== null && same(derived, tx.sourceAddress) && same(address, tx.sourceAddress),
    derived === null ? "signerKey.publicKey is missing or malformed" : `the key's address ${derived}, the source ${tx.sourceAddress}`,
  );
  if (ownershipProof === null) {
    check("ownership proof", false, "none is kept for this key (enrolled before the service kept proofs): ownership cannot be shown");
    return;
  }
  const ok =
    publicKey !== null && verifyOwnershipProof({ tenantId: tx.tenantId, address: tx.sourceAddress, publicKey, signature: ownershipProof });
  check("ownership proof", ok, `ML-DSA-87 (QUANTUM-OWNERSHIP-v1) for tenant ${tx.tenantId} and ${tx.sourceAddress}`);
}

function rawHash(rebuilt: QuantumTransactionSerializable, signature: Hex, publicKey: Hex): Hex | null {
  try {
    return getQuantumTransactionHash(serializeQuantumTransaction({ ...rebuilt, signature, publicKey }));
  } catch {
    return null;
  }
}

function checkChainHash(evidence: Evidence, hash: Hex | null, check: Check): void {
  const tx = evidence.transaction;
  check(
    "transaction hash",
    hash !== null && same(tx.chainTxHash, hash),
    hash === null
      ? "no raw signed transaction can be rebuilt"
      : `keccak256 of the raw signed transaction is ${hash}; the record says ${tx.chainTxHash ?? "none"}`,
  );
  const receipt = evidence.receipt;
  if (!receipt) {
    check("receipt", false, "no receipt: the transaction is not mined (yet)");
    return;
  }
  const status = receipt.status === "success" ? MINED_OK.includes(tx.status) : receipt.status === "reverted" && tx.status === "FAILED";
  const problems = [
    !same(receipt.transactionHash, hash) && `its hash ${receipt.transactionHash} is not the signed transaction's`,
    receipt.blockNumber !== tx.blockNumber && `its block ${receipt.blockNumber} is not the record's ${tx.blockNumber ?? "none"}`,
    !status && `its status ${receipt.status} contradicts the record's ${tx.status}`,
    !receipt.blockHash && "it names no block hash",
  ].filter((p): p is string => typeof p === "string");
  check(
    "receipt",
    problems.length === 0,
    problems.length === 0 ? `${receipt.status} in block ${receipt.blockNumber} (${receipt.blockHash})` : problems.join("; "),
  );
}
