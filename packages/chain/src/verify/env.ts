/**
 * The verify pool's configuration from the environment, validated when a pool is created.
 * QC_VERIFY_IMPL: `auto` (default: the native add-on when it was built, otherwise
 * @noble/post-quantum), `native` (the add-on or refuse to start), `noble`.
 */
export const VERIFY_IMPLEMENTATION_CHOICES = ["auto", "native", "noble"] as const;
export type VerifyImplementationChoice = (typeof VERIFY_IMPLEMENTATION_CHOICES)[number];

export function verifyImplementationFromEnv(env: NodeJS.ProcessEnv = process.env): VerifyImplementationChoice {
  const value = env.QC_VERIFY_IMPL?.trim() || "auto";
  if (!(VERIFY_IMPLEMENTATION_CHOICES as readonly string[]).includes(value)) {
    throw new RangeError(`QC_VERIFY_IMPL must be one of ${VERIFY_IMPLEMENTATION_CHOICES.join(", ")}, got "${value}"`);
  }
  return value as VerifyImplementationChoice;
}
