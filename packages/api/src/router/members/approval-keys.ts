import { MLDSA87_PUBLIC_KEY_LENGTH, MLDSA87_SIGNATURE_LENGTH } from "@qc/chain";
import { enrollApprovalKey, listApprovalKeys, MAX_ACTIVE_APPROVAL_KEYS, revokeApprovalKey } from "@qc/core";
import { z } from "zod";
import { timestamp } from "../../schemas/common";
import { EXAMPLE } from "../../openapi-examples";
import { authedProcedure, createRouter } from "../../trpc";

/*
 * The caller's approval keys (CONTRACT §15). "me" is the session's user, or the member who created
 * the API key. Enrolling and revoking need the `approve` action (a VIEWER cannot) and, for an API
 * key, the `signer` scope: the reference signer holds the approval key and a `signer` key
 * (docs/decisions/access-control.md). Listing is a read.
 */

const tags = ["members"];
const hex = (bytes: number) => new RegExp(`^(0x)?[0-9a-fA-F]{${bytes * 2}}$`);

const approvalKeyRecord = z.object({
  keyId: z.uuid(),
  publicKey: z.string().meta({ description: "ML-DSA-87 public key, lower-case hex with 0x (2,592 bytes)" }),
  createdAt: timestamp,
  revokedAt: timestamp.nullable().meta({ description: "null while the key counts; revoked keys stay listed" }),
});

const EXAMPLE_PUBLIC_KEY = `0x${"3f".repeat(MLDSA87_PUBLIC_KEY_LENGTH)}`;
const EXAMPLE_APPROVAL_KEY = {
  keyId: "0194f2c4-f398-75a6-81b2-93a4b5c6d7e8",
  publicKey: EXAMPLE_PUBLIC_KEY,
  createdAt: EXAMPLE.createdAt,
  revokedAt: null,
} as const;

const keyIdParam = z.uuid().meta({ description: "the approval key's id (`keyId`)" });

const enrollApprovalKeyProcedure = authedProcedure
  .meta({
    scope: "signer",
    action: "approve",
    successStatus: 201,
    openapi: {
      method: "POST",
      path: "/v1/members/me/approval-keys",
      tags,
      summary: "Enroll an approval key",
      description:
        "Enrolls an ML-DSA-87 public key with which this member signs approvals. `proof` is an ML-DSA-87 signature, " +
        "context `QUANTUM-APPROVER-KEY-v1`, over keccak256 of the UTF-8 of `QUANTUM-APPROVER-KEY-v1\\n<tenantId>\\n<userId>` " +
        "(`userId` from `GET /v1/members/me`); one that does not verify is 400 `INVALID_SIGNATURE`. A public key already " +
        `enrolled, or more than ${MAX_ACTIVE_APPROVAL_KEYS} keys not revoked, is 409 \`CONFLICT\`. Audited.`,
      protect: true,
    },
    errors: ["INVALID_SIGNATURE", "CONFLICT", "NOT_FOUND"],
    example: {
      input: { publicKey: EXAMPLE_PUBLIC_KEY, proof: `0x${"a1".repeat(MLDSA87_SIGNATURE_LENGTH)}` },
      output: EXAMPLE_APPROVAL_KEY,
    },
  })
  .input(
    z.object({
      publicKey: z.string().regex(hex(MLDSA87_PUBLIC_KEY_LENGTH), "ML-DSA-87 public key: 2,592 bytes as hex, 0x optional"),
      proof: z.string().regex(hex(MLDSA87_SIGNATURE_LENGTH), "ML-DSA-87 signature: 4,627 bytes as hex, 0x optional"),
    }),
  )
  .output(approvalKeyRecord)
  .mutation(({ ctx, input }) =>
    enrollApprovalKey(ctx.deps, { tenantId: ctx.auth.tenantId, userId: ctx.auth.userId, ...input, actor: ctx.actor }),
  );

const listApprovalKeysProcedure = authedProcedure
  .meta({
    scope: "read",
    action: "read",
    openapi: {
      method: "GET",
      path: "/v1/members/me/approval-keys",
      tags,
      summary: "List my approval keys",
      description: "This member's approval keys, newest first, revoked ones included with `revokedAt`. Not paginated.",
      protect: true,
    },
    example: { input: {}, output: { keys: [EXAMPLE_APPROVAL_KEY] } },
  })
  .input(z.object({}))
  .output(z.object({ keys: z.array(approvalKeyRecord) }))
  .query(({ ctx }) => listApprovalKeys(ctx.deps, { tenantId: ctx.auth.tenantId, userId: ctx.auth.userId }));

const revokeApprovalKeyProcedure = authedProcedure
  .meta({
    scope: "signer",
    action: "approve",
    successStatus: 204,
    openapi: {
      method: "DELETE",
      path: "/v1/members/me/approval-keys/{keyId}",
      tags,
      summary: "Revoke an approval key",
      description:
        "Revokes one of this member's approval keys: approvals signed with it stop counting for transfers not yet " +
        "released. The key stays listed with `revokedAt`. Another member's key is 404; one already revoked, 409 " +
        "`CONFLICT`. Audited.",
      protect: true,
    },
    errors: ["NOT_FOUND", "CONFLICT"],
    example: { input: { keyId: EXAMPLE_APPROVAL_KEY.keyId }, output: undefined },
  })
  .input(z.object({ keyId: keyIdParam }))
  .output(z.void())
  .mutation(({ ctx, input }) =>
    revokeApprovalKey(ctx.deps, { tenantId: ctx.auth.tenantId, userId: ctx.auth.userId, keyId: input.keyId, actor: ctx.actor }),
  );

export const approvalKeysRouter = createRouter({
  enroll: enrollApprovalKeyProcedure,
  list: listApprovalKeysProcedure,
  revoke: revokeApprovalKeyProcedure,
});
