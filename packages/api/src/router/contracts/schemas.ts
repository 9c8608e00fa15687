import { CONTRACT_TEMPLATE_KINDS } from "@qc/chain/contracts";
import { z } from "zod";

export const contractTemplateRecord = z.object({
  id: z.string().meta({ description: "the template's id, used as `templateId` of a deployment", example: "erc20-fixed-supply" }),
  name: z.string(),
  version: z
    .string()
    .meta({ description: "semantic version of the reviewed source; a changed contract is a new version", example: "1.0.0" }),
  description: z.string(),
  kind: z.enum(CONTRACT_TEMPLATE_KINDS).meta({ description: "TOKEN: an ERC-20, added to the tenant's assets once deployed" }),
  bytecodeHash: z
    .string()
    .regex(/^0x[0-9a-f]{64}$/)
    .meta({
      description:
        "keccak256 of the creation bytecode, pinned in the repository and checked by a test that recompiles the source " +
        "with the pinned solc",
    }),
  constructorInputs: z
    .array(
      z.object({
        name: z.string().meta({ description: "the key of `constructorArgs`" }),
        type: z.string().meta({ description: "Solidity ABI type; integers are given as decimal strings, addresses as 0x + 40 hex" }),
        description: z.string(),
      }),
    )
    .meta({ description: "the constructor's parameters in ABI order" }),
});
