import { BaseError } from "./base";

export type InvalidAddressErrorType = InvalidAddressError & { name: "InvalidAddressError" };

/** Input is not 40 hex digits (optional `0x`), or is mixed case and fails EIP-55. */
export class InvalidAddressError extends BaseError {
  readonly reason: "format" | "checksum";
  constructor({ address, reason }: { address: unknown; reason: "format" | "checksum" }) {
    const shown = typeof address === "string" ? JSON.stringify(address.length > 64 ? `${address.slice(0, 64)}…` : address) : typeof address;
    super(`Address ${shown} is invalid.`, {
      metaMessages: [
        reason === "checksum"
          ? "The address is mixed case but does not match its EIP-55 checksum."
          : "An address is 40 hexadecimal digits, optionally prefixed with 0x.",
      ],
      name: "InvalidAddressError",
    });
    this.reason = reason;
  }
}

export type InvalidPublicKeyErrorType = InvalidPublicKeyError & { name: "InvalidPublicKeyError" };

export class InvalidPublicKeyError extends BaseError {
  constructor({ length }: { length: number | undefined }) {
    super(
      length === undefined
        ? "Public key is not valid hex or bytes."
        : `Public key is ${length} bytes; an ML-DSA-87 public key is 2592 bytes.`,
      { name: "InvalidPublicKeyError" },
    );
  }
}

export type InvalidSecretKeyErrorType = InvalidSecretKeyError & { name: "InvalidSecretKeyError" };

export class InvalidSecretKeyError extends BaseError {
  constructor({ length }: { length: number | undefined }) {
    super(
      length === undefined
        ? "Secret key is not valid hex or bytes."
        : `Secret key is ${length} bytes; an ML-DSA-87 secret key is 4896 bytes.`,
      { name: "InvalidSecretKeyError" },
    );
  }
}
