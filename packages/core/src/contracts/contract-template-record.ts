import type { ContractTemplate, ContractTemplateKind } from "@qc/chain/contracts";

/** A template as `GET /v1/contracts/templates` lists it (CONTRACT §8). */
export interface ContractTemplateRecord {
  id: string;
  name: string;
  version: string;
  description: string;
  kind: ContractTemplateKind;
  /** keccak256 of the creation bytecode, as pinned in the repository and checked by a test that recompiles. */
  bytecodeHash: string;
  constructorInputs: { name: string; type: string; description: string }[];
}

export function toContractTemplateRecord(template: ContractTemplate): ContractTemplateRecord {
  return {
    id: template.id,
    name: template.name,
    version: template.version,
    description: template.description,
    kind: template.kind,
    bytecodeHash: template.bytecodeHash,
    constructorInputs: template.constructorInputs.map((input) => ({ name: input.name, type: input.type, description: input.description })),
  };
}
