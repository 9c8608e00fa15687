import { NotAnErc20ContractError, parseAddress, readErc20Metadata, type NetworkCode } from "@qc/chain";
import { isUniqueViolation, type Executor } from "@qc/db";
import { findTokenAsset, insertTokenAsset } from "@qc/db/queries";
import { chainUnavailable } from "../balances/chain-errors";
import { AppError } from "../errors";
import { auditAction, type Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { toAssetRecord, type AssetRecord } from "./asset-record";

export interface AddTokenAssetInput {
  tenantId: string;
  networkCode: NetworkCode;
  contractAddress: string;
  actor: Actor;
}

/**
 * Adds an ERC-20 of the tenant's: `symbol()`, `decimals()` and `name()` are read from the
 * contract on chain. An address without contract code, or a contract that does not answer as an
 * ERC-20, is 400 UNKNOWN_ASSET (the asset does not exist on that network). Adding the same token
 * again returns the existing asset (`created: false`).
 */
export async function addTokenAsset(
  deps: Pick<ServiceDeps, "db" | "chain" | "now">,
  input: AddTokenAssetInput,
): Promise<{ asset: AssetRecord; created: boolean }> {
  const contractAddress = parseAddress(input.contractAddress);
  const existing = await findToken(deps.db, input.tenantId, input.networkCode, contractAddress);
  if (existing) return { asset: existing, created: false };
  let metadata: Awaited<ReturnType<typeof readErc20Metadata>>;
  try {
    metadata = await readErc20Metadata(deps.chain.client(input.networkCode), { token: contractAddress });
  } catch (error) {
    if (error instanceof NotAnErc20ContractError) {
      throw new AppError(
        "UNKNOWN_ASSET",
        `no ERC-20 token contract at ${contractAddress} on ${input.networkCode}: the address has no contract code or does not answer symbol()/decimals()`,
        { details: { networkCode: input.networkCode, contractAddress } },
      );
    }
    throw chainUnavailable(input.networkCode, error);
  }
  try {
    const asset = await deps.db.transaction(async (tx) => {
      const row = await insertTokenAsset(tx, {
        tenantId: input.tenantId,
        networkCode: input.networkCode,
        symbol: metadata.symbol,
        name: metadata.name ?? metadata.symbol,
        decimals: metadata.decimals,
        contractAddress,
        createdAt: deps.now(),
      });
      await auditAction(tx, input.actor, {
        tenantId: input.tenantId,
        action: "asset.created",
        target: { type: "asset", id: row.id },
        details: {
          networkCode: input.networkCode,
          contractAddress,
          symbol: metadata.symbol,
          decimals: metadata.decimals,
        },
      });
      return toAssetRecord(row);
    });
    return { asset, created: true };
  } catch (error) {
    if (!isUniqueViolation(error, "assets_tenant_network_contract_unique")) throw error;
    // A concurrent request added it first.
    const raced = await findToken(deps.db, input.tenantId, input.networkCode, contractAddress);
    if (!raced) throw error;
    return { asset: raced, created: false };
  }
}

async function findToken(
  db: Executor,
  tenantId: string,
  networkCode: NetworkCode,
  contractAddress: string,
): Promise<AssetRecord | undefined> {
  const row = await findTokenAsset(db, { tenantId, networkCode, contractAddress });
  return row ? toAssetRecord(row) : undefined;
}
