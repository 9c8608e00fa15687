import { approvalHash, generateKeyPair, signApproval, signApproverKeyProof, type ApprovalFields } from "@qc/chain";
import type { ServiceConfig } from "@qc/core";
import { createKeyFixture, createMemberFixture, type TenantFixture } from "@qc/core/testing";
import type { Daemon } from "@qc/daemon";
import type { Database } from "@qc/db";
import type { MemberRole } from "@qc/domain";
import { useTestDatabase } from "@qc/db/testing";
import { useDevnet } from "@qc/devnet/testing";
import { afterAll, beforeAll, expect } from "vitest";
import { client, type Client } from "./custody-helpers";
import { call, startTestServer, TEST_PEPPER, type TestResponse, type TestServer } from "./harness";
import { eventually } from "./identity-helpers";
import { devnetConfig, fundedSource, startTransfersDaemon } from "./transfers-front-helpers";

/** A member who approves: their signer-scoped API key and one enrolled approval key (ML-DSA-87) they hold. */
export interface Approver {
  userId: string;
  api: Client;
  authorization: string;
  keyId: string;
  secretKey: Uint8Array;
}

/**
 * A test database, the devnet (`devnetOptions`, e.g. `disabledMethods`), the web server over HTTPS
 * and a daemon running the transfer jobs, sharing `overrides` of the configuration; and a funded
 * source (10 Q) of a fresh tenant.
 */
export function useApprovalStack(overrides: Partial<ServiceConfig> = {}, devnetOptions: Parameters<typeof useDevnet>[0] = {}) {
  const t = useTestDatabase();
  const devnet = useDevnet({ blockTimeMs: 200, ...devnetOptions });
  let server: TestServer;
  let daemon: Daemon;
  beforeAll(async () => {
    const config = devnetConfig(devnet(), overrides);
    server = await startTestServer({ database: t, config });
    daemon = await startTransfersDaemon(t.url, config);
  });
  afterAll(async () => {
    await daemon?.stop({ timeoutMs: 5_000 });
    await server?.close();
  });
  return { t, devnet, server: () => server, funded: () => fundedSource(() => server, t.db, devnet(), 10n * 10n ** 18n) };
}

const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString("hex")}`;

/**
 * A member of `tenant` with `role` (APPROVER by default), a `signer`-scoped API key (what the
 * reference signer runs with) and an approval key, stored as enrolment stores it.
 */
export async function addApprover(
  server: () => TestServer,
  db: Database,
  tenant: Pick<TenantFixture, "tenantId">,
  role: MemberRole = "APPROVER",
): Promise<Approver> {
  const member = await createMemberFixture({ db, pepper: TEST_PEPPER }, tenant, role);
  return approverOf(server, db, member);
}

/**
 * An existing member (the tenant's OWNER fixture, say) made an approver: a `signer` key, and an
 * approval key enrolled through `POST /v1/members/me/approval-keys` with its proof.
 */
export async function approverOf(server: () => TestServer, db: Database, member: TenantFixture): Promise<Approver> {
  const key = await createKeyFixture({ db, pepper: TEST_PEPPER }, member, ["signer"]);
  const api = client(server, key.authorization);
  const pair = generateKeyPair();
  const proof = signApproverKeyProof({ tenantId: member.tenantId, userId: member.userId, secretKey: pair.secretKey });
  const enrolled = await api.post("/v1/members/me/approval-keys", { publicKey: hex(pair.publicKey), proof });
  expect(enrolled.status, enrolled.text).toBe(201);
  return { userId: member.userId, api, authorization: key.authorization, keyId: enrolled.json().keyId, secretKey: pair.secretKey };
}

/** An approver group of `members`, created by an admin through `POST /v1/approver-groups`. */
export async function addGroup(admin: Client, name: string, members: { userId: string }[]): Promise<string> {
  const res = await admin.post("/v1/approver-groups", { name, memberIds: members.map((m) => m.userId) });
  expect(res.status, res.text).toBe(201);
  return res.json().id;
}

/** Revokes the approver's approval key through `DELETE /v1/members/me/approval-keys/{keyId}`. */
export async function revokeApprovalKey(server: () => TestServer, approver: Approver): Promise<void> {
  const res = await call(server(), `/v1/members/me/approval-keys/${approver.keyId}`, {
    method: "DELETE",
    headers: { authorization: approver.authorization },
  });
  expect(res.status, res.text).toBe(204);
}

/** A policy whose one rule holds every transfer above `amountAbove` (default: all) for `approvals`. */
export async function requireApprovals(api: Client, approvals: { groupId: string; quorum: number }[], amountAbove?: bigint) {
  const res = await api.put("/v1/policies", {
    defaultAction: "ALLOW",
    rules: [
      {
        id: "approvals",
        name: "Needs approvers",
        action: "REQUIRE_APPROVAL",
        match: amountAbove === undefined ? {} : { amountAbove: amountAbove.toString() },
        approvals,
      },
    ],
  });
  expect(res.status, res.text).toBe(200);
}

type PendingApproval = Record<string, any> & {
  id: string;
  approvalRequest: { approvalHash: `0x${string}`; context: string; fields: ApprovalFields };
};

/** The transaction as `GET /v1/approvals?status=PENDING` lists it for `approver` (waits until it is listed). */
export function pendingFor(approver: Approver, transactionId: string): Promise<PendingApproval> {
  return eventually(async () => {
    const res = await approver.api.get("/v1/approvals?status=PENDING");
    expect(res.status, res.text).toBe(200);
    return (res.json().transactions as PendingApproval[]).find((tx) => tx.id === transactionId);
  }, 30_000);
}

/**
 * What the signer's `approve` does: rebuilds `approvalHash` from the listed fields itself (and
 * refuses on a difference), signs it with the approval key and posts the approval.
 */
export async function approve(approver: Approver, transactionId: string, options: { hash?: `0x${string}` } = {}): Promise<TestResponse> {
  let hash = options.hash;
  if (!hash) {
    const listed = await pendingFor(approver, transactionId);
    hash = approvalHash(listed.approvalRequest.fields);
    expect(listed.approvalRequest.approvalHash).toBe(hash);
  }
  return approver.api.post(`/v1/transactions/${transactionId}/approvals`, {
    decision: "APPROVED",
    keyId: approver.keyId,
    signature: signApproval(hash, approver.secretKey),
  });
}

export function reject(approver: Approver, transactionId: string, reason: string): Promise<TestResponse> {
  return approver.api.post(`/v1/transactions/${transactionId}/approvals`, { decision: "REJECTED", reason });
}

/** The hash an approver signs for a record, rebuilt from the record itself. */
export function recordApprovalHash(record: Record<string, any>): `0x${string}` {
  return approvalHash({
    tenantId: record.tenantId,
    transactionId: record.id,
    chainId: record.chainId,
    sourceAddress: record.sourceAddress,
    destinationAddress: record.destinationAddress,
    assetId: record.assetId,
    amount: record.amount,
    type: record.type,
  });
}
