import type { ServiceConfig } from "../deps/service-config";

/** The WebAuthn relying party the dashboard is: its ID and the origin ceremonies must come from. */
export interface RelyingParty {
  /** PUBLIC_URL's host name (no port): passkeys are bound to it. */
  id: string;
  name: string;
  /** PUBLIC_URL's origin: a response made on any other page is refused. */
  origin: string;
}

/** Derived from PUBLIC_URL, the address the dashboard is served at (CONTRACT §3). */
export function relyingParty(config: Pick<ServiceConfig, "publicUrl">): RelyingParty {
  const url = new URL(config.publicUrl);
  return { id: url.hostname, name: "Quantum Custody", origin: url.origin };
}

/** How long a ceremony's challenge can be answered: the browser's prompt, and a person reaching for a key. */
export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60_000;
