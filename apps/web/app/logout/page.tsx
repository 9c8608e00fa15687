"use client";

import { useMutation } from "@tanstack/react-query";
import { useTRPC } from "../../src/dashboard/trpc";
import { ErrorNotice } from "../_components/states";
import { PublicFrame } from "../_components/public-frame";

/** Logging out is a button, never a page load: a link elsewhere cannot end someone's session. */
export default function LogoutPage() {
  const trpc = useTRPC();
  const logout = useMutation(trpc.auth.logout.mutationOptions());
  return (
    <PublicFrame title="Log out">
      {logout.isSuccess ? (
        <p className="notice success" role="status">
          You are logged out. <a href="/login">Log in again</a>
        </p>
      ) : (
        <>
          <p>End this dashboard session now. API keys keep working; revoke them on the API keys page.</p>
          <button type="button" onClick={() => logout.mutate({})} disabled={logout.isPending}>
            Log out
          </button>
          <ErrorNotice error={logout.error} />
        </>
      )}
    </PublicFrame>
  );
}
