"use client";

import { useQuery } from "@tanstack/react-query";
import type { Member } from "../../../src/dashboard/router-types";
import { useTRPC } from "../../../src/dashboard/trpc";

/**
 * The tenant's members by user id (one page of 200), to name a member where only the id is
 * stored: an approver's decision, a transfer's initiator, a group's members. A member not listed
 * (removed since) is named by their id.
 */
export function useMemberNames() {
  const trpc = useTRPC();
  const query = useQuery({ ...trpc.members.list.queryOptions({ limit: 200 }), staleTime: 30_000 });
  const members: Member[] = query.data?.members ?? [];
  const byId = new Map(members.map((member) => [member.userId, member]));
  const nameOf = (userId: string | null) => {
    if (!userId) return "—";
    const member = byId.get(userId);
    return member ? (member.name ? `${member.name} (${member.email})` : member.email) : `member ${userId}`;
  };
  return { query, members, byId, nameOf };
}
