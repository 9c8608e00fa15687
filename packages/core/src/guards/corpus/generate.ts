/**
 * Corpus generators for the key-material guard: real key material produced with real
 * libraries (rejection corpus) and legitimate values that must pass. Used by
 * key-material.test.ts and bench/key-material-guard.ts. Test-only code: it imports dev
 * dependencies (@scure/bip32, @noble/post-quantum) and node:crypto.
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { ml_dsa44, ml_dsa65, ml_dsa87 } from "@noble/post-quantum/ml-dsa.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { base58, base64, base64nopad, base64urlnopad, bech32, createBase58check, hex } from "@scure/base";
import { HDKey } from "@scure/bip32";
import { generateMnemonic, validateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import type { KeyMaterialKind } from "../key-material.js";
import type { Rng } from "./prng.js";
import { LABELS, PROSE_PARAGRAPHS, WORD_BANK } from "./prose.js";

export interface Sample {
  /** Human-readable description (never the value itself). */
  label: string;
  value: string;
}

export interface RejectSample extends Sample {
  kind: KeyMaterialKind;
}

const b58check = createBase58check(sha256);

// ---------------------------------------------------------------------------------------
// Rejection corpus (real key material)

export const MNEMONIC_WORD_COUNTS = [12, 15, 18, 21, 24] as const;

/** Real mnemonics from @scure/bip39 generateMnemonic (english), `perSize` of each length. */
export function mnemonics(perSize = 3): RejectSample[] {
  const out: RejectSample[] = [];
  for (const words of MNEMONIC_WORD_COUNTS) {
    for (let i = 0; i < perSize; i++) {
      out.push({ label: `${words}-word mnemonic #${i}`, kind: "BIP39_MNEMONIC", value: generateMnemonic(wordlist, (words / 3) * 32) });
    }
  }
  return out;
}

/** The same mnemonic written the ways people paste it. */
export function mnemonicVariants(m: string): Sample[] {
  const words = m.split(" ");
  return [
    { label: "upper case", value: m.toUpperCase() },
    { label: "newline separated", value: words.join("\n") },
    { label: "double spaces and tabs", value: "  " + words.join(" \t ") + "  " },
    { label: "comma separated", value: words.join(", ") },
    { label: "numbered list", value: words.map((w, i) => `${i + 1}. ${w}`).join("\n") },
    { label: "embedded in a sentence", value: `my recovery phrase is: ${m} — please keep it safe` },
    { label: "quoted in a JSON-looking string", value: JSON.stringify({ words: m }) },
  ];
}

export const BIP32_TESTNET = { private: 0x04358394, public: 0x043587cf };
export const BIP32_VERSIONS: Record<string, { private: number; public: number }> = {
  xprv: { private: 0x0488ade4, public: 0x0488b21e },
  tprv: BIP32_TESTNET,
  yprv: { private: 0x049d7878, public: 0x049d7cb2 },
  zprv: { private: 0x04b2430c, public: 0x04b24746 },
  Yprv: { private: 0x0295b005, public: 0x0295b43f },
  Zprv: { private: 0x02aa7a99, public: 0x02aa7ed3 },
  uprv: { private: 0x044a4e28, public: 0x044a5262 },
  vprv: { private: 0x045f18bc, public: 0x045f1cf6 },
  Ltpv: { private: 0x019d9cfe, public: 0x019da462 }, // Litecoin: no fixed prefix rule, needs the checksum path
};

/** Real BIP-32 extended keys from @scure/bip32 (master and derived, every version above). */
export function extendedKeys(): { priv: RejectSample[]; pub: Sample[] } {
  const priv: RejectSample[] = [];
  const pub: Sample[] = [];
  for (const [name, versions] of Object.entries(BIP32_VERSIONS)) {
    const master = HDKey.fromMasterSeed(randomBytes(32), versions);
    for (const [where, key] of [
      ["master", master],
      ["m/44'/0'/0'", master.derive("m/44'/0'/0'")],
      ["m/84'/1'/0'/0/7", master.derive("m/84'/1'/0'/0/7")],
    ] as const) {
      priv.push({ label: `${name} ${where}`, kind: "EXTENDED_PRIVATE_KEY", value: key.privateExtendedKey });
      pub.push({ label: `${name} public ${where}`, value: key.publicExtendedKey });
    }
  }
  return { priv, pub };
}

/** Random base58 text that merely looks like an extended private key (fail-closed case). */
export function fakeExtendedPrivateKeys(rng: Rng): RejectSample[] {
  const alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
  const rand = (n: number) => Array.from({ length: n }, () => rng.pick(alphabet.split(""))).join("");
  return ["xprv", "tprv", "zprv", "Vprv"].map((p) => ({
    label: `${p}-prefixed random base58, 111 chars, bad checksum`,
    kind: "EXTENDED_PRIVATE_KEY" as const,
    value: p + rand(107),
  }));
}

/** PEM private keys from node:crypto (RSA PKCS#1 + PKCS#8 + encrypted, EC SEC1 + PKCS#8, Ed25519). */
export function pemKeys(): { priv: RejectSample[]; pub: Sample[] } {
  const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const ec = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const ed = generateKeyPairSync("ed25519");
  const priv: [string, string][] = [
    ["RSA PKCS#1", rsa.privateKey.export({ type: "pkcs1", format: "pem" }) as string],
    ["RSA PKCS#8", rsa.privateKey.export({ type: "pkcs8", format: "pem" }) as string],
    [
      "RSA PKCS#8 encrypted",
      rsa.privateKey.export({ type: "pkcs8", format: "pem", cipher: "aes-256-cbc", passphrase: "correct horse" }) as string,
    ],
    ["EC SEC1", ec.privateKey.export({ type: "sec1", format: "pem" }) as string],
    ["EC PKCS#8", ec.privateKey.export({ type: "pkcs8", format: "pem" }) as string],
    ["Ed25519 PKCS#8", ed.privateKey.export({ type: "pkcs8", format: "pem" }) as string],
    // node:crypto cannot write these two formats; the armour is what the guard looks at.
    ["OpenSSH", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----\n"],
    ["DSA", "-----BEGIN DSA PRIVATE KEY-----\nMIIBuwIBAAKBgQC3\n-----END DSA PRIVATE KEY-----"],
  ];
  const pub: [string, string][] = [
    ["RSA SPKI public", rsa.publicKey.export({ type: "spki", format: "pem" }) as string],
    ["RSA PKCS#1 public", rsa.publicKey.export({ type: "pkcs1", format: "pem" }) as string],
    ["EC SPKI public", ec.publicKey.export({ type: "spki", format: "pem" }) as string],
    ["Ed25519 SPKI public", ed.publicKey.export({ type: "spki", format: "pem" }) as string],
  ];
  return {
    priv: priv.map(([label, value]) => ({ label: `PEM ${label}`, kind: "PEM_PRIVATE_KEY" as const, value })),
    pub: pub.map(([label, value]) => ({ label: `PEM ${label}`, value })),
  };
}

/** WIF = base58check(version ‖ key32 [‖ 0x01]). */
export function encodeWif(key: Uint8Array, version: number, compressed: boolean): string {
  const payload = new Uint8Array(compressed ? 34 : 33);
  payload[0] = version;
  payload.set(key, 1);
  if (compressed) payload[33] = 0x01;
  return b58check.encode(payload);
}

export function wifKeys(count = 3): RejectSample[] {
  const out: RejectSample[] = [];
  for (let i = 0; i < count; i++) {
    for (const [net, version] of [["mainnet", 0x80], ["testnet", 0xef]] as const) {
      for (const compressed of [false, true]) {
        out.push({
          label: `WIF ${net} ${compressed ? "compressed" : "uncompressed"} #${i}`,
          kind: "WIF_PRIVATE_KEY",
          value: encodeWif(randomBytes(32), version, compressed),
        });
      }
    }
  }
  return out;
}

export const MLDSA = { "ML-DSA-44": ml_dsa44, "ML-DSA-65": ml_dsa65, "ML-DSA-87": ml_dsa87 } as const;

/** Every textual encoding the guard must recognise for a byte string. */
export function encodings(bytes: Uint8Array): Sample[] {
  const h = hex.encode(bytes);
  const b64 = base64.encode(bytes);
  return [
    { label: "hex", value: h },
    { label: "0x-hex", value: "0x" + h },
    { label: "upper-case hex", value: h.toUpperCase() },
    { label: "base64", value: b64 },
    { label: "base64 unpadded", value: base64nopad.encode(bytes) },
    { label: "base64url", value: base64urlnopad.encode(bytes) },
    { label: "base64 wrapped at 64 columns", value: b64.replace(/(.{64})/g, "$1\n") },
  ];
}

/** Real ML-DSA-44/65/87 secret keys from @noble/post-quantum in every encoding. */
export function mldsaSecretKeys(): RejectSample[] {
  const out: RejectSample[] = [];
  for (const [name, alg] of Object.entries(MLDSA)) {
    const { secretKey } = alg.keygen(randomBytes(32));
    for (const e of encodings(secretKey)) {
      out.push({ label: `${name} secret key (${secretKey.length} B) as ${e.label}`, kind: "MLDSA_SECRET_KEY", value: e.value });
    }
  }
  return out;
}

export interface MldsaPublicMaterial {
  publicKey: Uint8Array;
  signature: Uint8Array;
}

/** Deterministic ML-DSA key pairs (seeded) and signatures; only the public parts are returned. */
export function mldsaPublicMaterial(rng: Rng, algs: (keyof typeof MLDSA)[] = ["ML-DSA-87"], perAlg = 1): (MldsaPublicMaterial & { alg: string })[] {
  const out: (MldsaPublicMaterial & { alg: string })[] = [];
  for (const name of algs) {
    const alg = MLDSA[name];
    for (let i = 0; i < perAlg; i++) {
      const { publicKey, secretKey } = alg.keygen(rng.bytes(32));
      const signature = alg.sign(rng.bytes(64), secretKey, { extraEntropy: false });
      out.push({ alg: name, publicKey, signature });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Legitimate corpus (must pass)

export function uuid(rng: Rng): string {
  const b = rng.bytes(16);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = hex.encode(b);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export const evmAddress = (rng: Rng): string => "0x" + hex.encode(rng.bytes(20));
export const hash64 = (rng: Rng): string => hex.encode(sha256(rng.bytes(32)));
export const txHash = (rng: Rng): string => "0x" + hash64(rng);
export const btcAddress = (rng: Rng): string => b58check.encode(Uint8Array.of(0x00, ...rng.bytes(20)));
export const bech32Address = (rng: Rng): string => bech32.encode("bc", [0, ...bech32.toWords(rng.bytes(20))]);
/** A Solana-style base58 public key (32 bytes, no checksum). */
export const base58PublicKey = (rng: Rng): string => base58.encode(rng.bytes(32));

/** Random sentences drawn from the word bank (roughly natural word frequencies). */
export function sentence(rng: Rng, words = 8 + rng.int(14)): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(rng.pick(WORD_BANK));
  const s = out.join(" ");
  return s[0]!.toUpperCase() + s.slice(1) + rng.pick([".", ".", ".", "?", "!"]);
}

export function proseText(rng: Rng): string {
  return rng.next() < 0.5 ? rng.pick(PROSE_PARAGRAPHS) : Array.from({ length: 1 + rng.int(4) }, () => sentence(rng)).join(" ");
}

/**
 * `words` wordlist words with no valid BIP-39 checksum in any window of 12, 15, 18, 21 or 24
 * consecutive words (checked with validateMnemonic): what the guard must let through. For
 * 12 words this is simply "a 12-word string with an invalid checksum".
 */
export function invalidChecksumMnemonic(rng: Rng, words = 12): string {
  return checksumFreeRun(rng, words).join(" ");
}

/** A run of wordlist words in which no window of 12..24 words has a valid checksum. */
export function checksumFreeRun(rng: Rng, length: number): string[] {
  const out: string[] = [];
  while (out.length < length) {
    out.push(rng.pick(wordlist));
    const valid = MNEMONIC_WORD_COUNTS.some(
      (size) => out.length >= size && validateMnemonic(out.slice(-size).join(" "), wordlist),
    );
    if (valid) out.pop();
  }
  return out;
}

/** A base58 string shaped like a WIF / xprv whose checksum is wrong. */
export function wrongChecksumBase58(rng: Rng, shape: "wif" | "wif-compressed" | "extended"): string {
  for (;;) {
    const good =
      shape === "extended"
        ? HDKey.fromMasterSeed(rng.bytes(32)).privateExtendedKey.slice(4)
        : encodeWif(rng.bytes(32), 0x80, shape === "wif-compressed");
    // Flip the last character: the checksum no longer matches.
    const last = good[good.length - 1]!;
    const bad = good.slice(0, -1) + (last === "z" ? "y" : "z");
    const prefix = shape === "extended" ? "abcd" : ""; // not a private (or public) prefix
    try {
      b58check.decode(prefix + bad);
    } catch {
      return prefix + bad;
    }
  }
}

/** Names of legitimate fields, including near-misses of the forbidden names. */
export const LEGIT_KEY_NAMES: readonly string[] = [
  "id", "label", "note", "notes", "publicKey", "public_key", "PUBLIC-KEY", "keyId", "key", "keys",
  "signature", "signatures", "address", "from", "to", "amount", "asset", "hash", "txHash",
  "seedless", "seeds", "seeded", "seedId", "mnemonicHint", "mnemonicVerified", "privateKeyId",
  "hasPrivateKey", "privateKeyFingerprint", "secret", "secrets", "secretKeyRef", "private", "xpub",
  "xprvAllowed", "recovery", "phrase", "createdAt", "tags", "meta", "approvals",
];

export function legitAtoms(rng: Rng, pq: MldsaPublicMaterial[]): Sample[] {
  const atoms: Sample[] = [
    { label: "EVM address", value: evmAddress(rng) },
    {
      label: "EVM address (mixed case)",
      value: "0x" + Array.from(hex.encode(rng.bytes(20)), (c) => (rng.next() < 0.5 ? c.toUpperCase() : c)).join(""),
    },
    { label: "64-hex hash", value: hash64(rng) },
    { label: "0x 64-hex tx hash", value: txHash(rng) },
    { label: "upper-case 64-hex", value: hash64(rng).toUpperCase() },
    { label: "UUID", value: uuid(rng) },
    { label: "bitcoin base58 address", value: btcAddress(rng) },
    { label: "bech32 address", value: bech32Address(rng) },
    { label: "base58 32-byte public key", value: base58PublicKey(rng) },
    { label: "ISO timestamp", value: new Date(1_700_000_000_000 + rng.int(1e9)).toISOString() },
    { label: "12-word string with an invalid checksum", value: invalidChecksumMnemonic(rng, 12) },
    { label: "24 wordlist words, no valid checksum in any window", value: invalidChecksumMnemonic(rng, 24) },
    { label: "WIF-shaped base58 with wrong checksum", value: wrongChecksumBase58(rng, "wif") },
    { label: "compressed-WIF-shaped base58 with wrong checksum", value: wrongChecksumBase58(rng, "wif-compressed") },
    { label: "111-char base58 with wrong checksum", value: wrongChecksumBase58(rng, "extended") },
    { label: "base64 32 bytes", value: base64.encode(rng.bytes(32)) },
    { label: "hex 33-byte compressed secp256k1-like public key", value: "02" + hex.encode(rng.bytes(32)) },
    { label: "65-byte hex ECDSA signature", value: "0x" + hex.encode(rng.bytes(65)) },
  ];
  for (const p of PROSE_PARAGRAPHS) atoms.push({ label: "prose paragraph", value: p });
  for (const l of LABELS) atoms.push({ label: "label", value: l });
  for (const m of pq) {
    for (const e of encodings(m.publicKey)) atoms.push({ label: `ML-DSA public key (${m.publicKey.length} B) as ${e.label}`, value: e.value });
    for (const e of encodings(m.signature)) atoms.push({ label: `ML-DSA signature (${m.signature.length} B) as ${e.label}`, value: e.value });
  }
  return atoms;
}

// ---------------------------------------------------------------------------------------
// Nesting

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/**
 * Wraps `value` `depth` levels deep in a mix of arrays and objects with decoy siblings and
 * returns the body and the JSON pointer of `value`.
 */
export function nestDeep(value: Json, depth: number, rng: Rng, leafKey = "value"): { body: Json; path: string } {
  let body: Json = { label: "leaf", [leafKey]: value };
  let path = "/" + leafKey.replace(/~/g, "~0").replace(/\//g, "~1");
  for (let d = 0; d < depth; d++) {
    if (rng.next() < 0.5) {
      const before = rng.int(3);
      const arr: Json[] = [];
      for (let i = 0; i < before; i++) arr.push(rng.pick([1, "x", null, { id: i }, []] as Json[]));
      arr.push(body);
      arr.push({ id: uuid(rng) });
      body = arr;
      path = `/${before}` + path;
    } else {
      const key = rng.pick(["wallets", "meta", "items", "data", "a/b", "x~y", "payload"]);
      body = { id: uuid(rng), [key]: body, after: [true, 2] };
      path = "/" + key.replace(/~/g, "~0").replace(/\//g, "~1") + path;
    }
  }
  return { body, path };
}

/** A random legitimate body (property-style tests). */
export function randomLegitBody(rng: Rng, atoms: readonly Sample[], maxDepth = 5): Json {
  const leaf = (): Json => {
    const r = rng.next();
    if (r < 0.6) return rng.pick(atoms).value;
    if (r < 0.7) return sentence(rng);
    if (r < 0.8) return rng.int(1e6) / 100;
    if (r < 0.9) return rng.next() < 0.5;
    return null;
  };
  const build = (depth: number): Json => {
    if (depth >= maxDepth || rng.next() < 0.3) return leaf();
    if (rng.next() < 0.4) return Array.from({ length: rng.int(6) }, () => build(depth + 1));
    const o: { [k: string]: Json } = {};
    const n = 1 + rng.int(6);
    for (let i = 0; i < n; i++) o[rng.pick(LEGIT_KEY_NAMES)] = build(depth + 1);
    return o;
  };
  return build(0);
}

// ---------------------------------------------------------------------------------------
// 1 MB bodies (benchmark and performance tests)

/**
 * A realistic ~`targetBytes` JSON body: a batch of transfer records with labels, prose notes,
 * addresses, 64-hex hashes, UUIDs, and (every third record) an ML-DSA-87 public key as hex
 * and a signature as base64, plus approvals with signatures.
 */
export function realisticBody(rng: Rng, targetBytes: number, pq: MldsaPublicMaterial[]): { text: string; value: Json } {
  const pkHex = pq.map((m) => hex.encode(m.publicKey));
  const sigB64 = pq.map((m) => base64.encode(m.signature));
  const items: Json[] = [];
  const body = { batchId: uuid(rng), createdAt: new Date(1_700_000_000_000).toISOString(), items };
  let size = 100;
  for (let i = 0; size < targetBytes; i++) {
    const item: { [k: string]: Json } = {
      id: uuid(rng),
      label: rng.pick(LABELS),
      note: proseText(rng),
      from: evmAddress(rng),
      to: evmAddress(rng),
      amount: (rng.int(1e9) / 1e4).toFixed(4),
      asset: rng.pick(["ETH", "USDC", "BTC", "QRL"]),
      txHash: txHash(rng),
      contentHash: hash64(rng),
      tags: [rng.pick(["payroll", "vendor", "refund", "rebalance"]), rng.pick(["q1", "q2", "q3", "q4"])],
      meta: { keyId: uuid(rng), approvals: [{ approver: uuid(rng), at: new Date(1_700_000_000_000 + i).toISOString() }] },
    };
    if (i % 3 === 0) {
      item.publicKey = rng.pick(pkHex);
      item.signature = rng.pick(sigB64);
    }
    items.push(item);
    size += JSON.stringify(item).length + 1;
  }
  const text = JSON.stringify(body);
  return { text, value: body };
}

/** A single ~`targetBytes` string of English prose (JSON-encoded body: one string). */
export function proseString(rng: Rng, targetBytes: number): string {
  const parts: string[] = [];
  let size = 0;
  while (size < targetBytes) {
    const p = proseText(rng);
    parts.push(p);
    size += p.length + 2;
  }
  return parts.join("\n\n");
}
