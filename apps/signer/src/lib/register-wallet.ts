import { signOwnershipProof } from "@qc/chain";
import type { StoredKey } from "./keystore/format";
import type { UnlockedKeystore } from "./keystore/keystore";
import { keyFromSeed, secretKeyOf } from "./keystore/signer-key";
import { SignerError } from "./errors";
import { isDefiniteRefusal } from "./service/outcome";
import type { SignerApi } from "./service/signer-api";

export type RegisterWalletParameters = {
  keystore: UnlockedKeystore;
  api: SignerApi;
  tenantId: string;
  vaultId: string;
  label?: string;
  /** An existing key's 32-byte seed to import; a fresh key is generated without one. */
  seed?: Uint8Array;
};

export type RegisterWalletResult = {
  wallet: { id: string; vaultId: string; address: string; type: string };
  key: StoredKey;
  imported: boolean;
};

/**
 * Registers a wallet whose key lives in this signer: the key (new, or imported from a seed)
 * is saved first as PENDING_REGISTRATION, its ownership of the address is proven for the
 * tenant (CONTRACT §5) and `POST /v1/vault/accounts/{id}/wallets` is called; only a 201 marks
 * it REGISTERED. A key added by this run is removed again when the service refuses.
 */
export async function registerWallet(params: RegisterWalletParameters): Promise<RegisterWalletResult> {
  const { keystore, api, tenantId, vaultId } = params;
  const material = keyFromSeed(params.seed);
  const existing = keystore.findKey(material.address);
  const added = existing === undefined;
  if (added) {
    const key: StoredKey = {
      ...material,
      origin: params.seed ? "IMPORTED" : "GENERATED",
      status: "PENDING_REGISTRATION",
      tenantId,
      createdAt: new Date().toISOString(),
      acceptedAt: null,
      vaultId,
      walletId: null,
      label: params.label ?? null,
    };
    await keystore.update((contents) => void contents.keys.push(key));
  }
  const key = keystore.findKey(material.address)!;

  const secretKey = secretKeyOf(key);
  let signature: string;
  try {
    signature = signOwnershipProof({ tenantId, address: key.address, secretKey });
  } finally {
    secretKey.fill(0);
  }

  let wallet: RegisterWalletResult["wallet"];
  try {
    wallet = await api.registerWallet(vaultId, {
      address: key.address,
      publicKey: key.publicKey,
      signature,
      ...(params.label === undefined ? {} : { label: params.label }),
    });
  } catch (error) {
    if (added && isDefiniteRefusal(error)) {
      await keystore.update((contents) => {
        contents.keys = contents.keys.filter((k) => k.address !== key.address);
      });
      throw error;
    }
    if (added) {
      throw new SignerError(
        `${(error as Error).message}; the key ${key.address} is kept as PENDING_REGISTRATION in case the service registered it: check the vault's wallets`,
        { cause: error },
      );
    }
    throw error;
  }

  const acceptedAt = new Date().toISOString();
  await keystore.update((contents) => {
    const stored = contents.keys.find((k) => k.address === key.address);
    if (!stored) return;
    stored.status = "REGISTERED";
    stored.acceptedAt = acceptedAt;
    stored.vaultId = wallet.vaultId;
    stored.walletId = wallet.id;
    stored.label = params.label ?? stored.label;
  });
  return { wallet, key: keystore.findKey(key.address)!, imported: params.seed !== undefined };
}
