import {
  encodeTemplateDeployment,
  InvalidConstructorArgumentsError,
  type ContractTemplate,
  type EncodeTemplateDeploymentReturnType,
} from "@qc/chain/contracts";
import { AppError } from "../errors";

/**
 * A deployment's creation data from its template and constructor arguments, with every bad
 * argument reported as 400 VALIDATION_FAILED naming it (`details.fields[].path` is
 * `constructorArgs.<name>`). The arguments come back canonical (addresses lower-case, defaults
 * filled in): that is the form stored and shown to the signer.
 */
export function encodeDeploymentData(template: ContractTemplate, constructorArgs: unknown): EncodeTemplateDeploymentReturnType {
  try {
    return encodeTemplateDeployment({ template, constructorArgs });
  } catch (error) {
    if (error instanceof InvalidConstructorArgumentsError) {
      throw new AppError("VALIDATION_FAILED", error.shortMessage, { details: { fields: error.fields, templateId: template.id } });
    }
    throw error;
  }
}
