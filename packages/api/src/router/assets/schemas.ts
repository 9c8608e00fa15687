import { ASSET_KINDS } from "@qc/domain";
import { z } from "zod";
import { networkCode } from "../../schemas/common";

export const assetRecord = z.object({
  id: z.uuid().meta({ description: "native assets: UUIDv5 of `<networkCode>:native` in the URL namespace" }),
  networkCode,
  kind: z.enum(ASSET_KINDS),
  symbol: z.string(),
  name: z.string(),
  decimals: z.number().int(),
  contractAddress: z.string().nullable().meta({ description: "lower-case 0x + 40 hex; null for the native asset" }),
});
