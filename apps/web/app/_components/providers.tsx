"use client";

import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { isUnauthenticated } from "../../src/dashboard/api-error";
import { createDashboardClient, TRPCProvider } from "../../src/dashboard/trpc";

/**
 * A failed session anywhere sends the person to the login page of the part they are in (the
 * console's or the operators'), remembering where they were.
 */
function sendToLogin(cause: unknown) {
  if (!isUnauthenticated(cause) || typeof window === "undefined") return;
  const here = window.location.pathname + window.location.search;
  const login = here.startsWith("/operators") ? "/operators/login" : "/login";
  if (window.location.pathname === login) return;
  window.location.assign(`${login}?next=${encodeURIComponent(here)}`);
}

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        queryCache: new QueryCache({ onError: sendToLogin }),
        mutationCache: new MutationCache({ onError: sendToLogin }),
        defaultOptions: {
          // A contract error (4xx) will not change on its own; only network trouble is retried.
          queries: { retry: (count, error) => count < 2 && describeNetwork(error), staleTime: 5_000, refetchOnWindowFocus: true },
        },
      }),
  );
  const [trpcClient] = useState(createDashboardClient);
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}

function describeNetwork(error: unknown): boolean {
  const shape = (error as { shape?: { error?: string } }).shape;
  return !shape?.error || shape.error === "UNAVAILABLE";
}
