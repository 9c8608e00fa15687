"use client";

import { roleAllows, type MemberAction } from "@qc/domain";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../src/dashboard/trpc";

/**
 * Who is signed in: the organization and the member with their current role (tRPC `session.me`),
 * and `can(action)`: whether that role may take an action of CONTRACT §14's table. Pages hide what
 * the role cannot do (the API refuses it anyway); until the role is known, nothing is offered.
 * The console frame renders pages only once it is known.
 */
export function useSignedInMember() {
  const trpc = useTRPC();
  const query = useQuery({ ...trpc.session.me.queryOptions(), staleTime: 30_000 });
  const role = query.data?.member.role;
  return { query, me: query.data, can: (action: MemberAction) => role !== undefined && roleAllows(role, action) };
}
