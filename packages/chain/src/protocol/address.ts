import { shake256 } from "@noble/hashes/sha3.js";
import { bytesToHex, checksumAddress, type Address, type Hex } from "viem";
import { InvalidAddressError, InvalidPublicKeyError } from "../errors/address";
import { ADDRESS_LENGTH, MLDSA87_DESCRIPTOR_BYTES, MLDSA87_PUBLIC_KEY_LENGTH } from "./constants";
import { bytesFromInput } from "./encoding";

/** Address of an ML-DSA-87 public key: the first 20 bytes of SHAKE256(descriptor ‖ publicKey), lower-case. */
export function addressFromPublicKey(publicKey: Uint8Array | Hex): Address {
  const bytes = bytesFromInput(publicKey);
  if (!bytes || bytes.length !== MLDSA87_PUBLIC_KEY_LENGTH) throw new InvalidPublicKeyError({ length: bytes?.length });
  const input = new Uint8Array(MLDSA87_DESCRIPTOR_BYTES.length + bytes.length);
  input.set(MLDSA87_DESCRIPTOR_BYTES, 0);
  input.set(bytes, MLDSA87_DESCRIPTOR_BYTES.length);
  return bytesToHex(shake256(input, { dkLen: ADDRESS_LENGTH })) as Address;
}

const ADDRESS_INPUT = /^(?:0x)?[0-9a-fA-F]{40}$/;

/**
 * Canonical address (CONTRACT §1): 40 hex digits with optional `0x`, any case; mixed case
 * must pass EIP-55. Returns lower-case `0x` form; throws `InvalidAddressError` otherwise.
 */
export function parseAddress(input: string): Address {
  if (typeof input !== "string" || !ADDRESS_INPUT.test(input)) {
    throw new InvalidAddressError({ address: input, reason: "format" });
  }
  const body = input.startsWith("0x") ? input.slice(2) : input;
  const lower = body.toLowerCase();
  const isMixedCase = body !== lower && body !== body.toUpperCase();
  if (isMixedCase && checksumAddress(`0x${lower}`).slice(2) !== body) {
    throw new InvalidAddressError({ address: input, reason: "checksum" });
  }
  return `0x${lower}`;
}

/** Whether `input` would be accepted by `parseAddress`. Never throws. */
export function isAddressInput(input: unknown): input is string {
  if (typeof input !== "string") return false;
  try {
    parseAddress(input);
    return true;
  } catch {
    return false;
  }
}
