"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname } from "next/navigation";
import type { MemberAction } from "@qc/domain";
import type { ReactNode } from "react";
import { isUnauthenticated } from "../../src/dashboard/api-error";
import { useTRPC } from "../../src/dashboard/trpc";
import { ErrorNotice, Loading } from "../_components/states";
import { useSignedInMember } from "../_components/use-signed-in-member";

/** The navigation; a link with an `action` shows only to roles that may take it (CONTRACT §14). */
const LINKS: { href: string; label: string; action?: MemberAction }[] = [
  { href: "/", label: "Overview" },
  { href: "/vaults", label: "Vaults" },
  { href: "/transactions", label: "Transactions" },
  { href: "/approvals", label: "Approvals", action: "approve" },
  { href: "/api-keys", label: "API keys" },
  { href: "/members", label: "Members" },
  { href: "/webhooks", label: "Webhooks" },
  { href: "/policies", label: "Policies" },
  { href: "/address-book", label: "Address book", action: "read" },
  { href: "/settings", label: "Settings" },
  { href: "/audit", label: "Audit log" },
];

function isCurrent(pathname: string, href: string) {
  if (href === "/") return pathname === "/";
  return pathname === href || pathname.startsWith(`${href}/`) || (href === "/vaults" && pathname.startsWith("/wallets/"));
}

/**
 * The signed-in frame: navigation, who is signed in (the organization, the member and their role),
 * the value-moving banner, and the session guard. Nothing of a page renders before the session and
 * the member's role are known (pages offer only what the role may do); a missing or expired
 * session goes to /login (through the query client's error handler) and comes back here after
 * logging in.
 */
export function ConsoleShell({ children }: { children: ReactNode }) {
  const trpc = useTRPC();
  const pathname = usePathname();
  const status = useQuery({
    ...trpc.onboarding.status.queryOptions(),
    refetchInterval: (query) => (query.state.data?.nextStep === "AWAIT_KYC_DECISION" ? 2_000 : 30_000),
  });
  const { query: who, me, can } = useSignedInMember();
  const logout = useMutation(trpc.auth.logout.mutationOptions({ onSettled: () => window.location.assign("/login") }));

  const failed = status.error ?? who.error;

  return (
    <div className="shell">
      <nav aria-label="Dashboard">
        <a className="brand" href="/">
          Quantum Custody
        </a>
        <ul>
          {LINKS.filter((link) => !link.action || can(link.action)).map((link) => (
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
        <div className="who" data-testid="signed-in">
          {me && (
            <p>
              <strong data-testid="organization-name">{me.tenant.name}</strong>
              <br />
              {me.member.name ?? me.member.email} (<span data-testid="member-role">{me.member.role}</span>)
              {me.member.name && (
                <>
                  <br />
                  {me.member.email}
                </>
              )}
            </p>
          )}
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
          {failed && !isUnauthenticated(failed) ? <ErrorNotice error={failed} title="Could not check your session" /> : null}
          {status.data && me ? children : !failed && <Loading what="your session" />}
          {failed && isUnauthenticated(failed) && <p>Your session has ended. Taking you to the login page…</p>}
        </main>
      </div>
    </div>
  );
}
