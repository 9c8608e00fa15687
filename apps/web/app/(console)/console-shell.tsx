"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";
import { isUnauthenticated } from "../../src/dashboard/api-error";
import { useTRPC } from "../../src/dashboard/trpc";
import { ErrorNotice, Loading } from "../_components/states";

const LINKS = [
  { href: "/", label: "Overview" },
  { href: "/vaults", label: "Vaults" },
  { href: "/transactions", label: "Transactions" },
  { href: "/api-keys", label: "API keys" },
  { href: "/webhooks", label: "Webhooks" },
  { href: "/policies", label: "Policies" },
  { href: "/settings", label: "Settings" },
  { href: "/audit", label: "Audit log" },
];

function isCurrent(pathname: string, href: string) {
  if (href === "/") return pathname === "/";
  return pathname === href || pathname.startsWith(`${href}/`) || (href === "/vaults" && pathname.startsWith("/wallets/"));
}

/**
 * The signed-in frame: navigation, the value-moving banner, and the session guard. Nothing of a
 * page renders before the session is known; a missing or expired one goes to /login (through
 * the query client's error handler) and comes back here after logging in.
 */
export function ConsoleShell({ children }: { children: ReactNode }) {
  const trpc = useTRPC();
  const pathname = usePathname();
  const status = useQuery({
    ...trpc.onboarding.status.queryOptions(),
    refetchInterval: (query) => (query.state.data?.nextStep === "AWAIT_KYC_DECISION" ? 2_000 : 30_000),
  });
  const logout = useMutation(trpc.auth.logout.mutationOptions({ onSettled: () => window.location.assign("/login") }));

  return (
    <div className="shell">
      <nav aria-label="Dashboard">
        <a className="brand" href="/">
          Quantum Custody
        </a>
        <ul>
          {LINKS.map((link) => (
            <li key={link.href}>
              <Link href={link.href} prefetch={false} aria-current={isCurrent(pathname, link.href) ? "page" : undefined}>
                {link.label}
              </Link>
            </li>
          ))}
          <li>
            {/* Served by the API server, not by the dashboard's router. */}
            <a href="/docs">API reference</a>
          </li>
        </ul>
        <div className="who">
          <button type="button" className="secondary small" onClick={() => logout.mutate({})} disabled={logout.isPending}>
            Log out
          </button>
        </div>
      </nav>
      <div>
        {status.data && !status.data.valueMovingEnabled && (
          <div className="banner" role="status" data-testid="value-moving-banner">
            <strong>Transfers are blocked</strong> until your organization&apos;s identity verification is approved
            {status.data.nextStep === "AWAIT_KYC_DECISION" ? " (verification in progress)." : "."}{" "}
            {pathname !== "/" && <a href="/">Go to onboarding</a>}
          </div>
        )}
        <main id="main">
          {status.error && !isUnauthenticated(status.error) ? (
            <ErrorNotice error={status.error} title="Could not check your session" />
          ) : null}
          {status.data ? children : !status.error && <Loading what="your session" />}
          {status.error && isUnauthenticated(status.error) && <p>Your session has ended. Taking you to the login page…</p>}
        </main>
      </div>
    </div>
  );
}
