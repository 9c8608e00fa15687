import { TENANT_STATUSES } from "@qc/domain";
import { z } from "zod";
import { timestamp, uuid } from "../../schemas/common";
import { ceremonyOptions } from "../passkeys/schemas";

/** A successful login: the session (also set as the `__Host-qc_session` cookie). */
export const loginSession = z.object({
  token: z.string().meta({ description: "qs_ + 64 hex; send as Authorization: Bearer <token>" }),
  expiresAt: timestamp,
  user: z.object({ id: uuid, email: z.string(), name: z.string().nullable() }),
  tenant: z.object({ id: uuid, name: z.string(), status: z.enum(TENANT_STATUSES) }),
});

/** The right password in a tenant that requires a passkey: no session yet (CONTRACT §14). */
export const passkeyChallenge = z.object({
  passkeyRequired: z.literal(true),
  challengeId: uuid.meta({ description: "send it with the passkey's answer to POST /v1/auth/login/passkey (5 minutes, single use)" }),
  options: ceremonyOptions,
});
