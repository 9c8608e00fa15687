import { z } from "zod";
import { text, timestamp, uuid } from "../../schemas/common";
import { EXAMPLE } from "../../openapi-examples";

/*
 * WebAuthn's JSON forms (what @simplewebauthn/browser's startRegistration and startAuthentication
 * answer, and what the options carry), checked for shape here; @simplewebauthn/server verifies
 * their content.
 */

const base64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*$/, "must be base64url");

/** WebAuthn's transports ("usb", "nfc", "internal", "hybrid", …): the list grows, so any short name is kept. */
const transport = z
  .string()
  .max(32)
  .regex(/^[a-z-]+$/, "not a transport name");

const credentialFields = {
  id: base64url(1400),
  rawId: base64url(1400),
  type: z.literal("public-key"),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  // The outputs of the extensions the options can ask for; any other is dropped.
  clientExtensionResults: z
    .object({
      appid: z.boolean().optional(),
      credProps: z.object({ rk: z.boolean().optional() }).optional(),
      hmacCreateSecret: z.boolean().optional(),
    })
    .default({}),
};

/** The answer of `navigator.credentials.create()` as JSON (RegistrationResponseJSON). */
export const registrationResponse = z
  .object({
    ...credentialFields,
    response: z.object({
      clientDataJSON: base64url(4096),
      attestationObject: base64url(16384),
      authenticatorData: base64url(4096).optional(),
      transports: z.array(transport).max(10).optional(),
      publicKeyAlgorithm: z.number().int().optional(),
      publicKey: base64url(4096).optional(),
    }),
  })
  .meta({ description: "@simplewebauthn/browser startRegistration()'s answer (RegistrationResponseJSON)" });

/** The answer of `navigator.credentials.get()` as JSON (AuthenticationResponseJSON). */
export const authenticationResponse = z
  .object({
    ...credentialFields,
    response: z.object({
      clientDataJSON: base64url(4096),
      authenticatorData: base64url(4096),
      signature: base64url(1024),
      userHandle: base64url(512).optional(),
    }),
  })
  .meta({ description: "@simplewebauthn/browser startAuthentication()'s answer (AuthenticationResponseJSON)" });

/** Options for the browser, as @simplewebauthn/server made them; passed on whole to @simplewebauthn/browser. */
export const ceremonyOptions = z.looseObject({ challenge: z.string() }).meta({
  description: "PublicKeyCredentialCreationOptionsJSON or PublicKeyCredentialRequestOptionsJSON: hand it to @simplewebauthn/browser",
});

export const passkeyName = text().trim().min(1).max(100);

export const passkeyIdParam = uuid.meta({ description: "the passkey's id" });

/** A passkey as the routes answer it: never key material. */
export const passkeyRecord = z.object({
  id: uuid,
  name: z.string(),
  transports: z.array(z.string()),
  createdAt: timestamp,
  lastUsedAt: timestamp.nullable(),
});

export const EXAMPLE_PASSKEY = {
  id: "0194f2c4-cf65-7273-9e8f-60718293a4b5",
  name: "YubiKey 5C",
  transports: ["usb", "nfc"],
  createdAt: EXAMPLE.createdAt,
  lastUsedAt: null,
} as const;

export const EXAMPLE_CHALLENGE_ID = "0194f2c4-d076-7384-8f90-718293a4b5c6";

export const EXAMPLE_AUTHENTICATION_RESPONSE = {
  id: "hS1xm4Wd2mX3Q8ZrLw0jbA",
  rawId: "hS1xm4Wd2mX3Q8ZrLw0jbA",
  type: "public-key",
  response: {
    clientDataJSON: "eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0",
    authenticatorData: "SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFAAAAAQ",
    signature: "MEUCIQDx",
  },
  clientExtensionResults: {},
} as const;

export const securitySettings = z.object({
  requirePasskey: z.boolean().meta({ description: "dashboard logins need a passkey after the password" }),
});
