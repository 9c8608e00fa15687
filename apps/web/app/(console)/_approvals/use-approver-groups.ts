"use client";

import { useQuery } from "@tanstack/react-query";
import type { RouterOutputs } from "../../../src/dashboard/router-types";
import { useTRPC } from "../../../src/dashboard/trpc";

export type ApproverGroup = RouterOutputs["approverGroups"]["list"]["groups"][number];

/**
 * The tenant's approver groups (CONTRACT §15), for pickers and for naming a group where only its
 * id is stored (a policy rule, a transaction's requirement). One page of 200 covers a tenant's
 * groups; a group not among them (deleted since) is named by its id.
 */
export function useApproverGroups() {
  const trpc = useTRPC();
  const query = useQuery(trpc.approverGroups.list.queryOptions({ limit: 200 }));
  const groups = query.data?.groups ?? [];
  const byId = new Map(groups.map((group) => [group.id, group]));
  return { query, groups, byId, nameOf: (groupId: string) => byId.get(groupId)?.name ?? `group ${groupId}` };
}
