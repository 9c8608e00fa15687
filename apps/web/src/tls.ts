import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generate } from "selfsigned";

export interface TlsMaterial {
  cert: string;
  key: string;
  selfSigned: boolean;
}

/**
 * The configured certificate, or a self-signed one for localhost kept under
 * <dataDir>/tls (made once, reused on later starts so browsers need one exception only).
 * In production there is no fallback: a deployment that forgot TLS_CERT_FILE must not come up
 * serving a certificate every client either rejects or is taught to click through.
 */
export async function loadTlsMaterial(options: {
  certFile?: string;
  keyFile?: string;
  dataDir: string;
  production?: boolean;
}): Promise<TlsMaterial> {
  if (options.certFile && options.keyFile) {
    return { cert: readFileSync(options.certFile, "utf8"), key: readFileSync(options.keyFile, "utf8"), selfSigned: false };
  }
  if (options.certFile || options.keyFile) throw new Error("TLS_CERT_FILE and TLS_KEY_FILE must be set together");
  if (options.production) {
    throw new Error(
      "TLS_CERT_FILE and TLS_KEY_FILE are required in production (without QC_DEV_MODE=true); the self-signed " +
        "fallback is for development mode only",
    );
  }
  const dir = join(options.dataDir, "tls");
  const certPath = join(dir, "localhost-cert.pem");
  const keyPath = join(dir, "localhost-key.pem");
  if (existsSync(certPath) && existsSync(keyPath)) {
    return { cert: readFileSync(certPath, "utf8"), key: readFileSync(keyPath, "utf8"), selfSigned: true };
  }
  const notAfter = new Date(Date.now() + 825 * 24 * 3600 * 1000);
  const pems = await generate([{ name: "commonName", value: "localhost" }], {
    keySize: 2048,
    algorithm: "sha256",
    notAfterDate: notAfter,
    extensions: [
      { name: "basicConstraints", cA: false },
      { name: "keyUsage", digitalSignature: true, keyEncipherment: true },
      { name: "extKeyUsage", serverAuth: true },
      {
        name: "subjectAltName",
        altNames: [
          { type: 2, value: "localhost" },
          { type: 7, ip: "127.0.0.1" },
          { type: 7, ip: "::1" },
        ],
      },
    ],
  } as never);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(certPath, pems.cert);
  writeFileSync(keyPath, pems.private, { mode: 0o600 });
  return { cert: pems.cert, key: pems.private, selfSigned: true };
}
