import { AppError, type FieldError } from "../errors";

/** CONTRACT §4: at most 50 keys, keys at most 40 characters, values at most 500, strings only. */
export const VAULT_METADATA_LIMITS = { maxKeys: 50, maxKeyLength: 40, maxValueLength: 500 } as const;

/** Field errors for a metadata object (paths `metadata.<key>`); empty when it is valid. */
export function vaultMetadataErrors(metadata: unknown): FieldError[] {
  if (metadata === null || typeof metadata !== "object" || Array.isArray(metadata)) {
    return [{ path: "metadata", message: "must be an object of string keys to string values" }];
  }
  const errors: FieldError[] = [];
  const entries = Object.entries(metadata);
  if (entries.length > VAULT_METADATA_LIMITS.maxKeys) {
    errors.push({ path: "metadata", message: `at most ${VAULT_METADATA_LIMITS.maxKeys} keys (got ${entries.length})` });
  }
  for (const [key, value] of entries) {
    const path = `metadata.${key}`;
    if (key.length === 0) errors.push({ path, message: "keys must not be empty" });
    if (key.length > VAULT_METADATA_LIMITS.maxKeyLength) {
      errors.push({ path, message: `key longer than ${VAULT_METADATA_LIMITS.maxKeyLength} characters` });
    }
    if (typeof value !== "string") errors.push({ path, message: "values must be strings" });
    else if (value.length > VAULT_METADATA_LIMITS.maxValueLength) {
      errors.push({ path, message: `value longer than ${VAULT_METADATA_LIMITS.maxValueLength} characters` });
    }
  }
  return errors;
}

export function assertVaultMetadata(metadata: unknown): asserts metadata is Record<string, string> {
  const fields = vaultMetadataErrors(metadata);
  if (fields.length) throw new AppError("VALIDATION_FAILED", "vault metadata is invalid", { details: { fields } });
}
