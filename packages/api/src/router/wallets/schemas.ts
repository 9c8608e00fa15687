import { WALLET_STATUSES, WALLET_TYPES } from "@qc/domain";
import { z } from "zod";
import { networkCode, text, timestamp } from "../../schemas/common";

export const walletIdParam = z.uuid().meta({ description: "the wallet's id" });
export const walletType = z.enum(WALLET_TYPES);

export const walletRecord = z.object({
  id: z.uuid(),
  vaultId: z.uuid().meta({ description: "the home vault; its network is the wallet's home network" }),
  tenantId: z.uuid(),
  assetIds: z.array(z.uuid()),
  networkLinks: z.array(z.object({ networkCode, vaultId: z.uuid() })).meta({ description: "every placement, the home vault's included" }),
  address: z.string().meta({ description: "lower-case 0x + 40 hex", example: "0x4f6a0b9f8e0d35d7c1f0a3f5e4b1c2d3e4f5a6b7" }),
  publicKey: z.string().nullable().meta({ description: "ML-DSA-87 public key (0x hex, 2592 bytes); null for WATCH_ONLY" }),
  label: z.string().nullable(),
  status: z.enum(WALLET_STATUSES),
  type: walletType,
  createdAt: timestamp,
});

export const assetIds = z
  .array(z.uuid())
  .max(100)
  .optional()
  .meta({ description: "assets of the vault's network to track; default: the network's native asset" });
export const walletLabel = text().trim().min(1).max(200).optional();
