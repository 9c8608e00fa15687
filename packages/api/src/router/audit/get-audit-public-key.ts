import { getAuditPublicKey } from "@qc/core";
import { z } from "zod";
import { EXAMPLE } from "../../openapi-examples";
import { authedProcedure } from "../../trpc";

const auditKeyId = z.string().regex(/^qcak_[0-9a-f]{16}$/);

/**
 * `GET /v1/audit/public-key`: the service's audit key, which signs the audit checkpoints. Any
 * authenticated principal may read it (scope `read`): it is a public key, and whoever verifies an
 * export (an auditor with a read-only key) needs it.
 */
export const getAuditPublicKeyProcedure = authedProcedure
  .meta({
    scope: "read",
    action: "read",
    openapi: {
      method: "GET",
      path: "/v1/audit/public-key",
      tags: ["audit"],
      summary: "Get the audit public key",
      description:
        "The service's ML-DSA-87 audit key (hex), which signs the audit log's checkpoints, and its id " +
        "(`qcak_` + the first 16 hex digits of SHA-256 of the public key's bytes). Without `keyId`, the key that " +
        "signs now; with `keyId` (a checkpoint's), that key even after a rotation retired it, so older " +
        "checkpoints stay verifiable. An unknown `keyId` is 404.",
      protect: true,
    },
    errors: ["NOT_FOUND"],
    example: {
      input: {},
      output: { publicKey: EXAMPLE.publicKey, keyId: "qcak_3f9a0c7d51e2b846" },
    },
  })
  .input(z.object({ keyId: auditKeyId.optional() }))
  .output(
    z.object({
      publicKey: z.string().meta({ description: "ML-DSA-87 public key, lower-case hex with 0x (2,592 bytes)" }),
      keyId: auditKeyId,
    }),
  )
  .query(({ ctx, input }) => getAuditPublicKey({ db: ctx.deps.database.db, config: ctx.deps.config }, input));
