/**
 * Test and benchmark support, kept out of the package's main entry so that `selfsigned` and
 * `@noble/curves` stay development dependencies: only tests and benchmarks import `@qc/webhooks/testing`.
 */
import { ed25519 } from "@noble/curves/ed25519.js";
import { generate } from "selfsigned";

export interface TestCertificateOptions {
  /** The subject's common name. Node checks a host name against it only when `dnsNames` is empty. */
  commonName: string;
  /** Host names listed in subjectAltName, for clients that connect by name rather than by address. */
  dnsNames?: string[];
}

/**
 * A self-signed certificate for 127.0.0.1 (and any `dnsNames`) that Node accepts as its own trust
 * anchor: the server presents it and the client passes the same PEM as `ca`, so tests run real TLS
 * with verification on. It is marked as a CA that may sign certificates because it stands as the
 * anchor. A test that connects by name lists that name in `dnsNames`, as a real certificate
 * would, rather than leaning on Node's fallback to the common name.
 */
export async function testCertificate(options: TestCertificateOptions): Promise<{ cert: string; key: string }> {
  const pems = await generate([{ name: "commonName", value: options.commonName }], {
    keySize: 2048,
    algorithm: "sha256",
    extensions: [
      { name: "basicConstraints", cA: true },
      { name: "keyUsage", digitalSignature: true, keyEncipherment: true, keyCertSign: true },
      { name: "extKeyUsage", serverAuth: true },
      {
        name: "subjectAltName",
        altNames: [...(options.dnsNames ?? []).map((name) => ({ type: 2 as const, value: name })), { type: 7, ip: "127.0.0.1" }],
      },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

/**
 * Verifies a delivery's `v1a` entries with @noble/curves, an Ed25519 implementation independent
 * of the node:crypto (OpenSSL) one the service signs with, so a test cannot pass on a mistake the
 * signer and the house verifier would share. Returns how many `v1a` entries verify.
 */
export function countV1aSignaturesVerifiedIndependently(
  publicKey: string,
  headers: Record<string, string | string[] | undefined>,
  body: Uint8Array | string,
): number {
  const key = Buffer.from(publicKey.replace(/^whpk_/, ""), "base64");
  const id = String(headers["webhook-id"]);
  const timestamp = String(headers["webhook-timestamp"]);
  const content = Buffer.concat([Buffer.from(`${id}.${timestamp}.`, "utf8"), typeof body === "string" ? Buffer.from(body, "utf8") : body]);
  return String(headers["webhook-signature"])
    .split(" ")
    .filter((entry) => entry.startsWith("v1a,"))
    .filter((entry) => {
      try {
        return ed25519.verify(Buffer.from(entry.slice(4), "base64"), content, key);
      } catch {
        return false;
      }
    }).length;
}
