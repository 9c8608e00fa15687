import type { NetworkCode } from "@qc/chain";
import type { AssetKind, ScreeningDecision } from "@qc/domain";

/** What a provider is told about a transfer: the intent, as stored. */
export interface ScreeningRequest {
  tenantId: string;
  transactionId: string;
  networkCode: NetworkCode;
  chainId: number;
  sourceAddress: string;
  destinationAddress: string;
  assetId: string;
  asset: { kind: AssetKind; symbol: string; decimals: number; contractAddress: string | null };
  /** Raw units, decimal string. */
  amount: string;
}

/** A provider's verdict: the record's `screening` field (CONTRACT §6). */
export interface ScreeningResult {
  provider: string;
  decision: ScreeningDecision;
  riskScore: number | null;
  reasons: string[];
}

/**
 * AML screening behind one interface: the built-in `denylist` and the HTTP provider implement
 * it, and a commercial provider would too. `screen` answers a verdict, or throws
 * ScreeningUnavailableError when no verdict could be had (the check fails closed).
 */
export interface ScreeningProvider {
  readonly name: string;
  screen(request: ScreeningRequest): Promise<ScreeningResult>;
}

/** The provider could not be asked, or answered something that is not a verdict. */
export class ScreeningUnavailableError extends Error {
  override readonly name = "ScreeningUnavailableError";
  constructor(
    readonly provider: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
