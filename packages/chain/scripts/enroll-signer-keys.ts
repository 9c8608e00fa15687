/**
 * Enrolls fresh signer keys for `wallets/generate` (CONTRACT §4), the way a signer does it:
 * generates N ML-DSA-87 key pairs into a local keystore file (secret keys stay there, never
 * sent), signs the ownership proof of each key's address for the tenant (CONTRACT §5) and
 * POSTs the public keys with their proofs to /v1/signer/keys.
 *
 *   pnpm exec tsx packages/chain/scripts/enroll-signer-keys.ts \
 *     --url https://localhost:8443 --token "$QC_TOKEN" --tenant "$TENANT_ID" \
 *     [--count 10] [--keystore .data/signer-keys.json] [--insecure | --cacert cert.pem]
 *
 * `--insecure` accepts the embedded default's self-signed certificate (like `curl -k`).
 * Prints the service's answer: `{enrolled, skipped, available, assigned}`.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { request } from "node:https";
import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import { bytesToHex } from "viem";
import { addressFromPublicKey, generateKeyPair, signOwnershipProof } from "../src/index";

/** The service accepts at most 50 keys per request; 25 keeps a request well under 1 MB. */
const BATCH = 25;

type StoredKey = { tenantId: string; address: string; publicKey: string; secretKey: string; createdAt: string };
type Keystore = { version: 1; keys: StoredKey[] };

const { values } = parseArgs({
  options: {
    url: { type: "string", default: "https://localhost:8443" },
    token: { type: "string" },
    tenant: { type: "string" },
    count: { type: "string", default: "10" },
    keystore: { type: "string", default: ".data/signer-keys.json" },
    insecure: { type: "boolean", default: false },
    cacert: { type: "string" },
  },
});

function fail(message: string): never {
  console.error(`enroll-signer-keys: ${message}`);
  process.exit(1);
}

const token = values.token ?? fail("--token <keyId>:<secret> is required");
const tenantId = values.tenant ?? fail("--tenant <tenantId> is required");
const count = Number(values.count);
if (!Number.isInteger(count) || count < 1 || count > 1000) fail("--count must be an integer from 1 to 1000");
const keystorePath = resolve(values.keystore!);
const ca = values.cacert ? readFileSync(values.cacert) : undefined;

function readKeystore(): Keystore {
  if (!existsSync(keystorePath)) return { version: 1, keys: [] };
  const parsed = JSON.parse(readFileSync(keystorePath, "utf8")) as Keystore;
  if (parsed.version !== 1 || !Array.isArray(parsed.keys)) fail(`${keystorePath} is not a signer keystore`);
  return parsed;
}

function writeKeystore(keystore: Keystore): void {
  mkdirSync(dirname(keystorePath), { recursive: true });
  writeFileSync(keystorePath, `${JSON.stringify(keystore, null, 2)}\n`, { mode: 0o600 });
  chmodSync(keystorePath, 0o600);
}

function post(path: string, body: unknown): Promise<{ status: number; text: string }> {
  const url = new URL(path, values.url);
  const payload = JSON.stringify(body);
  return new Promise((resolvePost, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "content-length": Buffer.byteLength(payload) },
        rejectUnauthorized: !values.insecure,
        ...(ca ? { ca } : {}),
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolvePost({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

// Keys are written to the keystore before anything is sent: an enrolled key always has its
// secret on this side.
const keystore = readKeystore();
const fresh = Array.from({ length: count }, () => {
  const { publicKey, secretKey } = generateKeyPair();
  const address = addressFromPublicKey(publicKey);
  return {
    stored: { tenantId, address, publicKey: bytesToHex(publicKey), secretKey: bytesToHex(secretKey), createdAt: new Date().toISOString() },
    proof: signOwnershipProof({ tenantId, address, secretKey }),
  };
});
writeKeystore({ version: 1, keys: [...keystore.keys, ...fresh.map((k) => k.stored)] });

let answer = "";
for (let i = 0; i < fresh.length; i += BATCH) {
  const batch = fresh.slice(i, i + BATCH).map((k) => ({ publicKey: k.stored.publicKey, proof: k.proof }));
  const res = await post("/v1/signer/keys", { keys: batch });
  if (res.status !== 201) fail(`POST /v1/signer/keys answered ${res.status}: ${res.text}`);
  answer = res.text;
}
console.log(answer);
