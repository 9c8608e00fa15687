import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";

/*
 * A software WebAuthn authenticator for tests (ES256, attestation "none"): it makes the JSON a
 * browser's navigator.credentials.create()/get() would answer through @simplewebauthn/browser,
 * so REST tests can register passkeys and log in with them. Test code only: production never
 * parses WebAuthn by hand (@simplewebauthn/server does).
 */

type CborValue = number | string | Uint8Array | CborValue[] | Map<CborValue, CborValue>;

function cborHead(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
  const head = Buffer.alloc(5);
  head[0] = (major << 5) | 26;
  head.writeUInt32BE(length, 1);
  return head;
}

/** The CBOR subset WebAuthn needs: integers, text, byte strings, arrays, maps. */
function cbor(value: CborValue): Buffer {
  if (typeof value === "number") return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value);
  if (typeof value === "string") return Buffer.concat([cborHead(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([cborHead(2, value.length), value]);
  if (Array.isArray(value)) return Buffer.concat([cborHead(4, value.length), ...value.map(cbor)]);
  return Buffer.concat([cborHead(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();
const uint32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};

const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export interface SoftwarePasskey {
  credentialId: Buffer;
  privateKey: KeyObject;
  /** The signature counter the next assertion carries (then incremented). */
  counter: number;
}

export interface AuthenticatorOptions {
  rpId?: string;
  origin?: string;
}

export class SoftwareAuthenticator {
  readonly rpId: string;
  readonly origin: string;

  constructor(options: AuthenticatorOptions = {}) {
    this.rpId = options.rpId ?? "localhost";
    this.origin = options.origin ?? "https://localhost";
  }

  private clientData(type: "webauthn.create" | "webauthn.get", challenge: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }));
  }

  /** A new ES256 credential for `options` (PublicKeyCredentialCreationOptionsJSON): the RegistrationResponseJSON and the key kept. */
  register(options: { challenge: string }): { response: Record<string, unknown>; passkey: SoftwarePasskey } {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const jwk = publicKey.export({ format: "jwk" });
    const coseKey = cbor(
      new Map<CborValue, CborValue>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, "base64url")],
        [-3, Buffer.from(jwk.y!, "base64url")],
      ]),
    );
    const credentialId = randomBytes(16);
    const credentialIdLength = Buffer.alloc(2);
    credentialIdLength.writeUInt16BE(credentialId.length);
    const authData = Buffer.concat([
      sha256(this.rpId),
      Buffer.from([UP | UV | AT]),
      uint32(0),
      Buffer.alloc(16), // AAGUID: none
      credentialIdLength,
      credentialId,
      coseKey,
    ]);
    const attestationObject = cbor(
      new Map<CborValue, CborValue>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]),
    );
    const id = b64url(credentialId);
    return {
      passkey: { credentialId, privateKey, counter: 1 },
      response: {
        id,
        rawId: id,
        type: "public-key",
        response: {
          clientDataJSON: b64url(this.clientData("webauthn.create", options.challenge)),
          attestationObject: b64url(attestationObject),
          transports: ["usb"],
        },
        clientExtensionResults: {},
      },
    };
  }

  /** An assertion of `passkey` for `options` (PublicKeyCredentialRequestOptionsJSON): the AuthenticationResponseJSON. */
  authenticate(passkey: SoftwarePasskey, options: { challenge: string }, counter = passkey.counter++): Record<string, unknown> {
    const authenticatorData = Buffer.concat([sha256(this.rpId), Buffer.from([UP | UV]), uint32(counter)]);
    const clientDataJSON = this.clientData("webauthn.get", options.challenge);
    const signature = sign("sha256", Buffer.concat([authenticatorData, sha256(clientDataJSON)]), passkey.privateKey);
    const id = b64url(passkey.credentialId);
    return {
      id,
      rawId: id,
      type: "public-key",
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authenticatorData),
        signature: b64url(signature),
      },
      clientExtensionResults: {},
    };
  }
}
