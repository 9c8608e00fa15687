import { encodeTemplateDeployment, findContractTemplate } from "@qc/chain/contracts";
import type { TransactionRow } from "@qc/db/queries";
import { AppError } from "../errors";

/**
 * The creation data of a stored CONTRACT_DEPLOY, rebuilt from its template id and constructor
 * arguments against the pinned catalog (bytecode hash checked, arguments re-validated); the
 * stored `data` must equal it. Throws AppError INTERNAL naming the first thing that does not hold.
 */
export function deploymentData(row: Pick<TransactionRow, "templateId" | "constructorArgs" | "data">): `0x${string}` {
  if (row.templateId === null || row.constructorArgs === null)
    throw new AppError("INTERNAL", "a CONTRACT_DEPLOY without its template or constructor arguments");
  const template = findContractTemplate(row.templateId);
  if (!template) throw new AppError("INTERNAL", `contract template ${row.templateId} is not in the catalog`);
  let data: `0x${string}`;
  try {
    data = encodeTemplateDeployment({ template, constructorArgs: row.constructorArgs }).data;
  } catch (error) {
    const message = (error as { shortMessage?: string }).shortMessage ?? (error instanceof Error ? error.message : String(error));
    throw new AppError("INTERNAL", `the deployment cannot be rebuilt from ${template.id} v${template.version}: ${message}`, {
      cause: error,
    });
  }
  if (row.data !== null && row.data !== data) {
    throw new AppError(
      "INTERNAL",
      `the stored creation data is not ${template.id} v${template.version}'s pinned bytecode with the stored constructor arguments`,
    );
  }
  return data;
}
