import {
  finishOperatorPasskeyRegistration,
  getOperatorSecuritySettings,
  listOwnOperatorPasskeys,
  removeOwnOperatorPasskey,
  startOperatorPasskeyRegistration,
  updateOperatorSecuritySettings,
  type RegistrationResponseJSON,
} from "@qc/core";
import { z } from "zod";
import { uuid } from "../../schemas/common";
import type { Context } from "../../context";
import { operatorProcedure } from "../../trpc";
import { ceremonyOptions, passkeyIdParam, passkeyName, passkeyRecord, registrationResponse } from "../passkeys/schemas";

/*
 * The signed-in operator's passkeys and the service-wide `requireOperatorPasskey` (tRPC only,
 * operator cookie), the console's counterpart of the dashboard's `passkeys.*` (CONTRACT §14).
 */

const deps = (ctx: Pick<Context, "deps">) => ({
  db: ctx.deps.database.db,
  now: ctx.deps.now,
  config: ctx.deps.config,
});

export const operatorPasskeyRegistrationOptionsProcedure = operatorProcedure
  .input(z.object({}).optional())
  .output(z.object({ challengeId: uuid, options: ceremonyOptions }))
  .mutation(async ({ ctx }) => {
    const { challengeId, options } = await startOperatorPasskeyRegistration(deps(ctx), { operatorId: ctx.operator.operatorId });
    return { challengeId, options: { ...options } };
  });

export const registerOperatorPasskeyProcedure = operatorProcedure
  .input(z.object({ challengeId: uuid, name: passkeyName, response: registrationResponse }))
  .output(passkeyRecord)
  .mutation(({ ctx, input }) =>
    finishOperatorPasskeyRegistration(deps(ctx), {
      operatorId: ctx.operator.operatorId,
      challengeId: input.challengeId,
      name: input.name,
      response: input.response as RegistrationResponseJSON,
      requestId: ctx.request.requestId,
      ip: ctx.request.ip,
    }),
  );

export const listOperatorPasskeysProcedure = operatorProcedure
  .input(z.object({}).optional())
  .output(z.object({ passkeys: z.array(passkeyRecord) }))
  .query(async ({ ctx }) => ({ passkeys: await listOwnOperatorPasskeys(deps(ctx), { operatorId: ctx.operator.operatorId }) }));

export const removeOperatorPasskeyProcedure = operatorProcedure
  .input(z.object({ passkeyId: passkeyIdParam }))
  .output(z.void())
  .mutation(({ ctx, input }) =>
    removeOwnOperatorPasskey(deps(ctx), {
      operatorId: ctx.operator.operatorId,
      passkeyId: input.passkeyId,
      requestId: ctx.request.requestId,
      ip: ctx.request.ip,
    }),
  );

const operatorSecuritySettings = z.object({
  requireOperatorPasskey: z.boolean().meta({ description: "console logins need a passkey after the password" }),
});

export const getOperatorSecuritySettingsProcedure = operatorProcedure
  .input(z.object({}).optional())
  .output(operatorSecuritySettings)
  .query(({ ctx }) => getOperatorSecuritySettings(deps(ctx)));

/** Any operator; turning it on needs a passkey of the caller's (409 `PASSKEY_REQUIRED`). Audited. */
export const updateOperatorSecuritySettingsProcedure = operatorProcedure
  .input(operatorSecuritySettings)
  .output(operatorSecuritySettings)
  .mutation(({ ctx, input }) =>
    updateOperatorSecuritySettings(deps(ctx), {
      operatorId: ctx.operator.operatorId,
      requireOperatorPasskey: input.requireOperatorPasskey,
      requestId: ctx.request.requestId,
      ip: ctx.request.ip,
    }),
  );
