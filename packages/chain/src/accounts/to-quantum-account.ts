import { bytesToHex, type Hex, type LocalAccount, type TransactionSerializable } from "viem";
import { toAccount } from "viem/accounts";
import { toQuantumTransaction } from "../chains";
import { UnsupportedOperationError } from "../errors/transaction";
import { addressFromPublicKey } from "../protocol/address";
import { bytesFromInput } from "../protocol/encoding";
import { publicKeyFromSecretKey, secretKeyBytes } from "../protocol/keys";
import { signQuantumTransaction } from "../protocol/signing";
import { InvalidPublicKeyError } from "../errors/address";
import { MLDSA87_PUBLIC_KEY_LENGTH } from "../protocol/constants";

export type QuantumAccount = LocalAccount<"quantum"> & { quantumPublicKey: Hex };

export type ToQuantumAccountParameters = {
  secretKey: Uint8Array | Hex;
  publicKey?: Uint8Array | Hex;
  /** Deterministic ML-DSA signatures (default hedged). */
  deterministic?: boolean;
};

/**
 * A viem local account that signs `0x51` transactions with ML-DSA-87, so a wallet client on
 * a QUANTUM chain can `sendTransaction`, `deployContract` and `writeContract`. Message and
 * typed-data signing have no QUANTUM definition yet and throw.
 */
export function toQuantumAccount({ secretKey, publicKey, deterministic }: ToQuantumAccountParameters): QuantumAccount {
  const sk = secretKeyBytes(secretKey);
  const pk = publicKey === undefined ? publicKeyFromSecretKey(sk) : bytesFromInput(publicKey, MLDSA87_PUBLIC_KEY_LENGTH);
  if (!pk) throw new InvalidPublicKeyError({ length: bytesFromInput(publicKey)?.length });
  const quantumPublicKey = bytesToHex(pk);
  const account = toAccount({
    address: addressFromPublicKey(pk),
    async signTransaction(transaction: TransactionSerializable) {
      return signQuantumTransaction({ transaction: toQuantumTransaction(transaction), secretKey: sk, publicKey: pk, deterministic })
        .serializedTransaction;
    },
    async signMessage() {
      throw new UnsupportedOperationError("signMessage", "no QUANTUM message-signing scheme is defined");
    },
    async signTypedData() {
      throw new UnsupportedOperationError("signTypedData", "no QUANTUM typed-data scheme is defined");
    },
  });
  return { ...account, source: "quantum", quantumPublicKey } as QuantumAccount;
}
