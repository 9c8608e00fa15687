import { createApproverGroup, deleteApproverGroup, getApproverGroup, listApproverGroups, updateApproverGroup } from "@qc/core";
import { z } from "zod";
import { EXAMPLE, EXAMPLE_LAST_PAGE } from "../../openapi-examples";
import { pageInfo, pageQuery } from "../../schemas/common";
import { authedProcedure, createRouter } from "../../trpc";
import {
  approverGroupIdParam,
  approverGroupMemberIds,
  approverGroupName,
  approverGroupRecord,
  EXAMPLE_APPROVER_GROUP,
  POLICY_NEEDS_GROUP,
} from "./schemas";

const tags = ["approvals"];
const { id: _id, createdAt: _createdAt, updatedAt: _updatedAt, ...EXAMPLE_BODY } = EXAMPLE_APPROVER_GROUP;

const listApproverGroupsProcedure = authedProcedure
  .meta({
    scope: "read",
    action: "read",
    openapi: {
      method: "GET",
      path: "/v1/approver-groups",
      tags,
      summary: "List approver groups",
      description: "The tenant's approver groups with their members, newest first. Paginate with `cursor`.",
      protect: true,
    },
    example: { input: { limit: 50 }, output: { groups: [EXAMPLE_APPROVER_GROUP], page: EXAMPLE_LAST_PAGE } },
  })
  .input(pageQuery)
  .output(z.object({ groups: z.array(approverGroupRecord), page: pageInfo }))
  .query(({ ctx, input }) => listApproverGroups(ctx.deps, { tenantId: ctx.auth.tenantId, ...input }));

const createApproverGroupProcedure = authedProcedure
  .meta({
    scope: "admin",
    action: "administer",
    successStatus: 201,
    openapi: {
      method: "POST",
      path: "/v1/approver-groups",
      tags,
      summary: "Create an approver group",
      description:
        'A named set of the tenant\'s members that a policy rule with `action: "REQUIRE_APPROVAL"` requires through ' +
        "`approvals: [{groupId, quorum}]`. `memberIds` must be members of the tenant that are not removed (else 400 " +
        "`VALIDATION_FAILED` naming them). Audited.",
      protect: true,
    },
    example: { input: EXAMPLE_BODY, output: EXAMPLE_APPROVER_GROUP },
  })
  .input(z.object({ name: approverGroupName, memberIds: approverGroupMemberIds }))
  .output(approverGroupRecord)
  .mutation(({ ctx, input }) => createApproverGroup(ctx.deps, { tenantId: ctx.auth.tenantId, ...input, actor: ctx.actor }));

const getApproverGroupProcedure = authedProcedure
  .meta({
    scope: "read",
    action: "read",
    openapi: {
      method: "GET",
      path: "/v1/approver-groups/{groupId}",
      tags,
      summary: "Get an approver group",
      description: "One approver group of the tenant with its members; another tenant's group is 404.",
      protect: true,
    },
    errors: ["NOT_FOUND"],
    example: { input: { groupId: EXAMPLE_APPROVER_GROUP.id }, output: EXAMPLE_APPROVER_GROUP },
  })
  .input(z.object({ groupId: approverGroupIdParam }))
  .output(approverGroupRecord)
  .query(({ ctx, input }) => getApproverGroup(ctx.deps, { tenantId: ctx.auth.tenantId, groupId: input.groupId }));

const updateApproverGroupProcedure = authedProcedure
  .meta({
    scope: "admin",
    action: "administer",
    openapi: {
      method: "PUT",
      path: "/v1/approver-groups/{groupId}",
      tags,
      summary: "Rename an approver group or replace its members",
      description:
        "Sets `name` and/or replaces `memberIds` as a whole; a field left out is unchanged. Fewer members than a " +
        `quorum the current policy needs of the group: ${POLICY_NEEDS_GROUP} Audited with the members before and after.`,
      protect: true,
    },
    errors: ["NOT_FOUND", "CONFLICT"],
    example: {
      input: { groupId: EXAMPLE_APPROVER_GROUP.id, name: "Treasury approvers (EU)" },
      output: { ...EXAMPLE_APPROVER_GROUP, name: "Treasury approvers (EU)", updatedAt: EXAMPLE.updatedAt },
    },
  })
  .input(z.object({ groupId: approverGroupIdParam, name: approverGroupName.optional(), memberIds: approverGroupMemberIds.optional() }))
  .output(approverGroupRecord)
  .mutation(({ ctx, input }) => updateApproverGroup(ctx.deps, { tenantId: ctx.auth.tenantId, ...input, actor: ctx.actor }));

const deleteApproverGroupProcedure = authedProcedure
  .meta({
    scope: "admin",
    action: "administer",
    successStatus: 204,
    openapi: {
      method: "DELETE",
      path: "/v1/approver-groups/{groupId}",
      tags,
      summary: "Delete an approver group",
      description: `Deletes the group and its memberships. A group the current policy names: ${POLICY_NEEDS_GROUP} Audited.`,
      protect: true,
    },
    errors: ["NOT_FOUND", "CONFLICT"],
    example: { input: { groupId: EXAMPLE_APPROVER_GROUP.id }, output: undefined },
  })
  .input(z.object({ groupId: approverGroupIdParam }))
  .output(z.void())
  .mutation(({ ctx, input }) => deleteApproverGroup(ctx.deps, { tenantId: ctx.auth.tenantId, groupId: input.groupId, actor: ctx.actor }));

export const approverGroupsRouter = createRouter({
  list: listApproverGroupsProcedure,
  create: createApproverGroupProcedure,
  get: getApproverGroupProcedure,
  update: updateApproverGroupProcedure,
  delete: deleteApproverGroupProcedure,
});
