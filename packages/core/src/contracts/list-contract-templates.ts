import { CONTRACT_TEMPLATES } from "@qc/chain/contracts";
import { toContractTemplateRecord, type ContractTemplateRecord } from "./contract-template-record";

/**
 * The audited templates shipped with the service. The catalog is code, the same for every
 * tenant and network, so there is nothing to authorise or page through.
 */
export function listContractTemplates(): { templates: ContractTemplateRecord[] } {
  return { templates: CONTRACT_TEMPLATES.map(toContractTemplateRecord) };
}
