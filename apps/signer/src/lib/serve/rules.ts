import { readFileSync } from "node:fs";
import { isAddressInput, parseAddress } from "@qc/chain";
import type { Address } from "viem";
import { z } from "zod";
import { UsageError } from "../errors";

/** The types `serve` can sign (CONTRACT §6, §17); a DEPOSIT is never offered for signing. */
export const SIGNABLE_TYPES = ["TRANSFER", "CONTRACT_DEPLOY", "NONCE_FILL", "REPLACEMENT", "CANCELLATION"] as const;
export type SignableType = (typeof SIGNABLE_TYPES)[number];

/** The rules of `signer serve` (CONTRACT §17), validated. Amounts are base units of each asset. */
export type ServeRules = {
  maxAmountPerTransfer: ReadonlyMap<string, bigint>;
  dailyLimit: ReadonlyMap<string, bigint>;
  /** The tenant's ACTIVE address book (read from the service), or a fixed list of addresses (lower case). */
  destinations: "ADDRESS_BOOK" | ReadonlySet<Address>;
  types: ReadonlySet<SignableType>;
};

const ASSET_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const amount = z.string().regex(/^(0|[1-9][0-9]{0,77})$/, 'must be a decimal string of base units, such as "1500000"');
const amountsByAsset = z
  .record(z.string(), amount)
  .refine((amounts) => Object.keys(amounts).every((id) => ASSET_ID.test(id)), "its keys must be asset ids (UUIDs, from GET /v1/assets)");

const rulesSchema = z.strictObject({
  maxAmountPerTransfer: amountsByAsset,
  dailyLimit: amountsByAsset,
  destinations: z.union([
    z.literal("ADDRESS_BOOK"),
    z
      .array(z.string().refine((value) => isAddressInput(value), "must be a 0x address of 20 bytes"))
      .max(100_000, "must list at most 100000 addresses"),
  ]),
  types: z.array(z.enum(SIGNABLE_TYPES)).min(1, "must list at least one type"),
});

const toMap = (amounts: Record<string, string>) =>
  new Map(Object.entries(amounts).map(([assetId, value]) => [assetId.toLowerCase(), BigInt(value)]));

/**
 * Parses a rules file's text: every key required, none unknown (a misspelt key would otherwise
 * silently loosen nothing and confuse), amounts as decimal strings of base units, asset ids as the
 * service names them. A bad file is a usage error naming the first faults, so `serve` never starts
 * with rules other than the ones written.
 */
export function parseRules(text: string, origin = "the rules file"): ServeRules {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${origin} is not JSON (${(error as Error).message})`);
  }
  const parsed = rulesSchema.safeParse(json);
  if (!parsed.success) {
    const faults = parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.join(".") || "the file"}: ${issue.message}`);
    throw new UsageError(`${origin} is not valid rules: ${faults.join("; ")}`);
  }
  const rules = parsed.data;
  return {
    maxAmountPerTransfer: toMap(rules.maxAmountPerTransfer),
    dailyLimit: toMap(rules.dailyLimit),
    destinations: rules.destinations === "ADDRESS_BOOK" ? "ADDRESS_BOOK" : new Set(rules.destinations.map((a) => parseAddress(a))),
    types: new Set(rules.types),
  };
}

/** Reads and parses the rules file at `path` (exit 2 when it cannot be read or is not valid rules). */
export function readRulesFile(path: string): ServeRules {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read the rules file ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  return parseRules(text, `the rules file ${path}`);
}
