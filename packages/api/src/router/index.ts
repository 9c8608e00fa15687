import { createRouter } from "../trpc";
import { credentialsRouter } from "./credentials";

/** Every area's router, merged; the same object serves /api/trpc and /v1. */
export const appRouter = createRouter({
  credentials: credentialsRouter,
});

export type AppRouter = typeof appRouter;
