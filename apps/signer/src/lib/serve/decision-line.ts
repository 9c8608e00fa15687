import type { RuleName } from "./judge-request";

/** The rule named when the rebuild-and-compare refused, before any rule was read. */
export const VERIFICATION_RULE = "verification";

/**
 * One line of `signer serve`'s standard output per decision taken and carried out (CONTRACT §17):
 * what was signed and submitted, or rejected and why (with an approval key, also each approval
 * decided). No secret: no key, signature or API key.
 */
export type DecisionLine = {
  time: string;
  transactionId: string;
  type: string;
  /** APPROVED only on an approval's line (`approval: true`). */
  decision: "SIGNED" | "REJECTED" | "APPROVED";
  /** Present (true) on the line of a decision on an approval (CONTRACT §15), absent on a signing request's. */
  approval?: true;
  rule?: RuleName | typeof VERIFICATION_RULE;
  reason?: string;
  /** Base units, a decimal string; "0" for what moves no value. */
  amount: string;
  assetId: string | null;
  destination: string | null;
};

export const formatDecisionLine = (line: DecisionLine): string => JSON.stringify(line);
