import { logIn, sessionCookie } from "@qc/core";
import { z } from "zod";
import { timestamp, uuid } from "../../schemas/common";
import { publicProcedure } from "../../trpc";
import { emailAddress } from "../signup/schemas";

export const logInProcedure = publicProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/v1/auth/login",
      tags: ["auth"],
      protect: false,
      summary: "Log in to the dashboard: a 12 h sliding session token, also set as the qc_session cookie",
    },
  })
  .input(z.object({ email: emailAddress, password: z.string().min(1, "required").max(1024) }))
  .output(
    z.object({
      token: z.string().meta({ description: "qs_ + 64 hex; send as Authorization: Bearer <token>" }),
      expiresAt: timestamp,
      user: z.object({ id: uuid, email: z.string(), name: z.string().nullable() }),
      tenant: z.object({ id: uuid, name: z.string(), status: z.enum(["PENDING_VERIFICATION", "VERIFIED", "REJECTED"]) }),
    }),
  )
  .mutation(async ({ ctx, input }) => {
    const userAgent = ctx.request.headers["user-agent"];
    const result = await logIn(
      { db: ctx.deps.database.db, now: ctx.deps.now, authenticator: ctx.deps.authenticator },
      { email: input.email, password: input.password, ip: ctx.request.ip, requestId: ctx.request.requestId, userAgent },
    );
    ctx.responseHeaders.set("Set-Cookie", sessionCookie(result.token));
    ctx.responseHeaders.set("Cache-Control", "no-store");
    return result;
  });
