"use client";

import type { AppRouter } from "@qc/api";
import { createTRPCClient, httpBatchLink, httpLink, splitLink } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import superjson from "superjson";

/** The dashboard's typed client for /api/trpc: same routers, same guards as /v1. */
export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

/** What a call may carry besides its input (tRPC operation context). */
export interface CallContext {
  /** Sent as `X-Idempotency-Key`: the call goes alone, never in a batch sharing one header. */
  idempotencyKey?: string;
}

const URL = "/api/trpc";
// The session lives in an HttpOnly, SameSite=Strict cookie of this origin: never anything else.
const sameOrigin: typeof fetch = (input, init) => fetch(input, { ...init, credentials: "same-origin" });

export function createDashboardClient() {
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => typeof (op.context as CallContext).idempotencyKey === "string",
        true: httpLink({
          url: URL,
          transformer: superjson,
          fetch: sameOrigin,
          headers: ({ op }) => ({ "x-idempotency-key": (op.context as CallContext).idempotencyKey! }),
        }),
        false: httpBatchLink({ url: URL, transformer: superjson, fetch: sameOrigin, maxURLLength: 4000 }),
      }),
    ],
  });
}

export type DashboardClient = ReturnType<typeof createDashboardClient>;
