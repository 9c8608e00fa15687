import { createRouter } from "../trpc";

/** Every area's router, merged; the same object serves /api/trpc and /v1. */
export const appRouter = createRouter({});

export type AppRouter = typeof appRouter;
