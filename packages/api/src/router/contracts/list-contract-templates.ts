import { listContractTemplates } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { contractTemplateRecord } from "./schemas";

export const listContractTemplatesProcedure = authedProcedure
  .meta({
    scope: "read",
    action: "read",
    openapi: {
      method: "GET",
      path: "/v1/contracts/templates",
      tags: ["contracts"],
      summary: "List contract templates",
      description:
        "The audited contract templates the service can deploy, each with the keccak256 of its creation bytecode " +
        "(pinned in the repository, rechecked before every broadcast) and its constructor inputs. Give integer " +
        "arguments as decimal strings and addresses as 40 hex digits.",
      protect: true,
    },
    // The real catalog: the example cannot drift from what the route answers.
    example: { output: listContractTemplates() },
  })
  .input(z.object({}).optional())
  .output(z.object({ templates: z.array(contractTemplateRecord) }))
  .query(() => listContractTemplates());
