import { z } from "zod";
import { networkCode, timestamp, uuid } from "../../schemas/common";

/** A decimal integer string of base units (CONTRACT §1). */
export const baseUnits = z.string().regex(/^(0|[1-9][0-9]*)$/);
/** A UTC day, `YYYY-MM-DD`. */
export const utcDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const assetTotal = z.object({
  assetId: uuid,
  networkCode,
  symbol: z.string(),
  name: z.string(),
  decimals: z.number().int(),
  /** Null when the network could not be read: never shown as zero. */
  balance: baseUnits.nullable(),
  walletCount: z.number().int(),
});

export const balanceSummary = z.object({
  networks: z.array(
    z.object({
      networkCode,
      status: z.enum(["AVAILABLE", "UNAVAILABLE"]),
      blockNumber: z.number().int().nullable(),
      message: z.string().nullable(),
    }),
  ),
  totals: z.array(assetTotal),
  vaults: z.array(z.object({ vaultId: uuid, name: z.string(), networkCode, assets: z.array(assetTotal) })),
  truncated: z.boolean(),
  queriedAt: timestamp,
});

export const dailyFlows = z.object({
  from: utcDay,
  days: z.number().int(),
  flows: z.array(
    z.object({
      day: utcDay,
      assetId: uuid,
      networkCode,
      symbol: z.string(),
      decimals: z.number().int(),
      outflow: baseUnits,
      inflow: baseUnits,
    }),
  ),
});

export const balanceHistory = z.object({
  walletId: uuid,
  networkCode,
  assetId: uuid,
  symbol: z.string(),
  decimals: z.number().int(),
  days: z.array(z.object({ day: utcDay, balance: baseUnits, blockNumber: z.number().int() })),
  queriedAt: timestamp,
});
