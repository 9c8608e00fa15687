import { findContractTemplate, type ContractTemplate } from "@qc/chain/contracts";
import { AppError } from "../errors";

/** The catalog template with this id, or 404 NOT_FOUND (a deployment of an unknown template). */
export function requireContractTemplate(templateId: string): ContractTemplate {
  const template = findContractTemplate(templateId);
  if (!template) throw new AppError("NOT_FOUND", `no contract template ${JSON.stringify(templateId)}`, { details: { templateId } });
  return template;
}
