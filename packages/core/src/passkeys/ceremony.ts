import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { isoBase64URL } from "@simplewebauthn/server/helpers";
import type { ServiceConfig } from "../deps/service-config";
import { AppError } from "../errors";
import { PASSKEY_CHALLENGE_TTL_MS, relyingParty } from "./relying-party";

/*
 * The WebAuthn ceremonies, whoever owns the passkey: a tenant's member (the dashboard) or an
 * operator (the console). One code path makes and verifies the options and answers; the callers
 * only keep their own tables (passkeys / operator_passkeys) and audit.
 */

type Config = Pick<ServiceConfig, "publicUrl">;

/** A stored passkey, as the ceremonies need it. */
export interface StoredPasskey {
  credentialId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  counter: number;
  transports: string[];
}

type Transports = NonNullable<Parameters<typeof generateAuthenticationOptions>[0]["allowCredentials"]>[number]["transports"];
const transports = (p: Pick<StoredPasskey, "transports">) => p.transports as Transports;

/** Options for `navigator.credentials.create()`, the owner's passkeys excluded; `userHandle` keeps one credential per owner. */
export function registrationOptions(
  config: Config,
  owner: { userName: string; userHandle: string; existing: Pick<StoredPasskey, "credentialId" | "transports">[] },
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const rp = relyingParty(config);
  return generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: owner.userName,
    userID: new TextEncoder().encode(owner.userHandle),
    attestationType: "none",
    timeout: PASSKEY_CHALLENGE_TTL_MS,
    excludeCredentials: owner.existing.map((p) => ({ id: p.credentialId, transports: transports(p) })),
    authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
  });
}

/**
 * The browser's registration answer, verified by @simplewebauthn/server against the challenge,
 * PUBLIC_URL's origin and RP ID; the passkey to store, or 400 VALIDATION_FAILED.
 */
export async function verifyRegistration(
  config: Config,
  input: { expectedChallenge: string; response: RegistrationResponseJSON },
): Promise<StoredPasskey> {
  const rp = relyingParty(config);
  const refused = (message: string) =>
    new AppError("VALIDATION_FAILED", "the passkey's answer did not verify", { details: { fields: [{ path: "response", message }] } });
  let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verification = await verifyRegistrationResponse({
      response: input.response,
      expectedChallenge: input.expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      // A second factor after the password: the authenticator's presence is the proof; a PIN is welcome, not required.
      requireUserVerification: false,
    });
  } catch (error) {
    throw refused(error instanceof Error ? error.message : "not verified");
  }
  if (!verification.verified || !verification.registrationInfo) throw refused("not verified");
  const { credential } = verification.registrationInfo;
  return {
    credentialId: credential.id,
    publicKey: isoBase64URL.fromBuffer(credential.publicKey),
    counter: credential.counter,
    transports: credential.transports ?? [],
  };
}

/** Options for `navigator.credentials.get()` naming the owner's passkeys. */
export function authenticationOptions(
  config: Config,
  passkeys: Pick<StoredPasskey, "credentialId" | "transports">[],
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return generateAuthenticationOptions({
    rpID: relyingParty(config).id,
    allowCredentials: passkeys.map((p) => ({ id: p.credentialId, transports: transports(p) })),
    userVerification: "preferred",
    timeout: PASSKEY_CHALLENGE_TTL_MS,
  });
}

/**
 * A login's assertion, verified by @simplewebauthn/server against the passkey (origin and RP ID
 * from PUBLIC_URL, signature, a counter that must grow when the authenticator keeps one): the
 * new counter, or undefined for any refusal (bad signature, origin, RP ID, counter).
 */
export async function verifyAssertion(
  config: Config,
  input: { expectedChallenge: string; response: AuthenticationResponseJSON; passkey: StoredPasskey },
): Promise<number | undefined> {
  const rp = relyingParty(config);
  try {
    const verification = await verifyAuthenticationResponse({
      response: input.response,
      expectedChallenge: input.expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: input.passkey.credentialId,
        publicKey: isoBase64URL.toBuffer(input.passkey.publicKey),
        counter: input.passkey.counter,
        transports: transports(input.passkey),
      },
      requireUserVerification: false,
    });
    return verification.verified ? verification.authenticationInfo.newCounter : undefined;
  } catch {
    return undefined;
  }
}
