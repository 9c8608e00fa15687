/**
 * PQClean's ML-DSA-87 (FIPS 204) verification with a context string: true only when the
 * signature verifies over the message with this key and context. Wrong lengths (key, signature,
 * context over 255 bytes) are false; an argument that is not a Uint8Array throws a TypeError.
 */
export type NativeMlDsa87Verify = (signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array, context: Uint8Array) => boolean;

export type LoadNativeMlDsa87Result = { ok: true; path: string; verify: NativeMlDsa87Verify } | { ok: false; path: string; reason: string };

/** Where `pnpm install` leaves the add-on when a C compiler was present. */
export declare const NATIVE_ADDON_PATH: string;

/** The add-on at `path` (default: the one built at install), or why it cannot be used. Never throws. */
export declare function loadNativeMlDsa87(path?: string): LoadNativeMlDsa87Result;
