/**
 * Test and benchmark support, kept out of the package's main entry so that `selfsigned` stays a
 * development dependency: only tests and benchmarks import `@qc/webhooks/testing`.
 */
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
