import { ml_dsa87 } from "@noble/post-quantum/ml-dsa.js";
import { loadNativeMlDsa87, type LoadNativeMlDsa87Result } from "@qc/mldsa-native";
import { BaseError } from "../errors/base";
import type { VerifyImplementationChoice } from "./env";
import type { VerifyBytes } from "./verify-input";

/** `native`: PQClean's ML-DSA-87 through the @qc/mldsa-native add-on; `noble`: @noble/post-quantum. */
export type VerifyImplementation = "native" | "noble";

export type ResolvedVerifyImplementation =
  | { implementation: "native"; addonPath: string; nativeUnavailable?: undefined }
  | { implementation: "noble"; addonPath?: undefined; /** Why not native, when `auto` fell back. */ nativeUnavailable?: string };

export type NativeVerifyUnavailableErrorType = NativeVerifyUnavailableError & { name: "NativeVerifyUnavailableError" };
/** `native` was asked for and the add-on cannot be loaded: refuse rather than verify with something else. */
export class NativeVerifyUnavailableError extends BaseError {
  constructor({ path, reason }: { path: string; reason: string }) {
    super("The native ML-DSA-87 verify add-on was required (QC_VERIFY_IMPL=native) but cannot be used.", {
      metaMessages: [
        `add-on: ${path}`,
        `reason: ${reason}`,
        "Build it with `./qc pnpm --filter @qc/mldsa-native build` (needs a C compiler), or choose QC_VERIFY_IMPL=auto " + "or noble.",
      ],
      name: "NativeVerifyUnavailableError",
    });
  }
}

/**
 * Which implementation a pool runs. Never a silent substitute: `native` without the add-on
 * throws, and `auto` says why it fell back to noble (the pool logs it and reports it in stats).
 */
export function resolveVerifyImplementation(
  choice: VerifyImplementationChoice,
  loadNative: () => LoadNativeMlDsa87Result = loadNativeMlDsa87,
): ResolvedVerifyImplementation {
  if (choice === "noble") return { implementation: "noble" };
  const native = loadNative();
  if (native.ok) return { implementation: "native", addonPath: native.path };
  if (choice === "native") throw new NativeVerifyUnavailableError(native);
  return { implementation: "noble", nativeUnavailable: `${native.reason} (${native.path})` };
}

/**
 * The chosen implementation as a function on the calling thread: what the pool's threads run,
 * for a caller that verifies inline (the benchmark's one-thread figures) and for cross-checks.
 */
export function verifierOnThisThread(resolved: ResolvedVerifyImplementation): (bytes: VerifyBytes) => boolean {
  if (resolved.implementation === "native") {
    const native = loadNativeMlDsa87(resolved.addonPath);
    if (!native.ok) throw new NativeVerifyUnavailableError(native);
    return ({ signature, message, publicKey, context }) => native.verify(signature, message, publicKey, context);
  }
  return ({ signature, message, publicKey, context }) => {
    try {
      return ml_dsa87.verify(signature, message, publicKey, { context });
    } catch {
      return false;
    }
  };
}
