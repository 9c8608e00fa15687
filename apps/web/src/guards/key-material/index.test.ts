import { sha256 } from "@noble/hashes/sha2.js";
import { createBase58check } from "@scure/base";
import { validateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { beforeAll, describe, expect, it } from "vitest";
import {
  checksumFreeRun,
  encodings,
  evmAddress,
  hash64,
  extendedKeys,
  fakeExtendedPrivateKeys,
  invalidChecksumMnemonic,
  legitAtoms,
  LEGIT_KEY_NAMES,
  mldsaPublicMaterial,
  mldsaSecretKeys,
  mnemonics,
  mnemonicVariants,
  MNEMONIC_WORD_COUNTS,
  nestDeep,
  pemKeys,
  proseString,
  randomLegitBody,
  realisticBody,
  wifKeys,
  type Json,
  type MldsaPublicMaterial,
  type RejectSample,
  type Sample,
} from "../../../test/fixtures/key-material/generate.js";
import { mulberry32 } from "../../../test/fixtures/key-material/prng.js";
import { LABELS, PROSE_PARAGRAPHS } from "../../../test/fixtures/key-material/prose.js";
import { findKeyMaterial, isKeyMaterialKeyName, type KeyMaterialFinding } from "./index.js";

const FORBIDDEN_NAMES = [
  "privateKey",
  "private_key",
  "PRIVATE-KEY",
  "PrivateKey",
  "private-key",
  "secretKey",
  "secret_key",
  "SECRET-KEY",
  "privKey",
  "priv_key",
  "seed",
  "SEED",
  "Seed",
  "seedPhrase",
  "seed_phrase",
  "seed-phrase",
  "mnemonic",
  "MNEMONIC",
  "recoveryPhrase",
  "recovery_phrase",
  "xprv",
  "XPRV",
  "__seed__",
  "x-p-r-v",
  "_-Seed",
];

/** The pointer escaping the guard uses (RFC 6901). */
const seg = (k: string) => "/" + k.replace(/~/g, "~0").replace(/\//g, "~1");

// Real key material is generated once per run (RSA key generation is the slow part).
let rejections: RejectSample[];
let xpubs: Sample[];
let pemPublic: Sample[];
let pq: (MldsaPublicMaterial & { alg: string })[];
let atoms: Sample[];

beforeAll(() => {
  const rng = mulberry32(0x5eed);
  const ext = extendedKeys();
  const pem = pemKeys();
  xpubs = ext.pub;
  pemPublic = pem.pub;
  rejections = [...mnemonics(3), ...ext.priv, ...fakeExtendedPrivateKeys(rng), ...pem.priv, ...wifKeys(3), ...mldsaSecretKeys()];
  pq = mldsaPublicMaterial(mulberry32(0x9e), ["ML-DSA-44", "ML-DSA-65", "ML-DSA-87"]);
  atoms = legitAtoms(mulberry32(0xa70), pq);
}, 60_000);

function expectFinding(body: unknown, kind: KeyMaterialFinding["kind"], path: string, value?: string): void {
  const f = findKeyMaterial(body);
  expect(f).toEqual({ kind, path });
  if (value !== undefined && value.length > 0) expect(f!.path.includes(value)).toBe(false);
}

describe("isKeyMaterialKeyName", () => {
  it.each(FORBIDDEN_NAMES)("%s is a key-material name", (name) => {
    expect(isKeyMaterialKeyName(name)).toBe(true);
  });

  it.each([...LEGIT_KEY_NAMES, "", "see", "sed", "seeds", "xprvs", "private", "key", "phrase", "----", "-_-_", "0xseed"])(
    "%s is not (exact match after normalisation only)",
    (name) => {
      expect(isKeyMaterialKeyName(name)).toBe(false);
    },
  );

  it("gives the same answer on repeated calls (memoised)", () => {
    for (let i = 0; i < 3; i++) {
      expect(isKeyMaterialKeyName("seed_Phrase")).toBe(true);
      expect(isKeyMaterialKeyName("publicKey")).toBe(false);
    }
  });
});

describe("key names in bodies", () => {
  const values: Json[] = [null, "", 0, false, {}, [], "hunter2", { nested: 1 }, "not a key"];

  it.each(FORBIDDEN_NAMES)("rejects %s whatever its value, including null and empty", (name) => {
    for (const value of values) expectFinding({ id: 1, [name]: value }, "KEY_NAME", seg(name));
  });

  it.each(FORBIDDEN_NAMES)("rejects %s nested deep in arrays and objects", (name) => {
    const rng = mulberry32(name.length);
    for (const depth of [1, 5, 40]) {
      const { body, path } = nestDeep("irrelevant", depth, rng, name);
      expectFinding(body, "KEY_NAME", path);
    }
  });

  it("reports the key name before looking at its value", () => {
    const m = rejections.find((r) => r.kind === "BIP39_MNEMONIC")!.value;
    expectFinding({ wallets: [{ meta: { privateKey: m } }] }, "KEY_NAME", "/wallets/0/meta/privateKey", m);
  });

  it("passes legitimate names with ordinary values", () => {
    const body = Object.fromEntries(LEGIT_KEY_NAMES.map((k) => [k, "value"]));
    expect(findKeyMaterial(body)).toBeNull();
  });
});

/** Every rejection sample must be found as a bare string, in an object, embedded deep, and on its own path. */
function checkRejection(sample: RejectSample, seed: number): void {
  const { kind, value } = sample;
  expectFinding(value, kind, "", value);
  expectFinding({ value }, kind, "/value", value);
  expectFinding([1, "two", value], kind, "/2", value);
  const rng = mulberry32(seed);
  for (const depth of [3, 25]) {
    const { body, path } = nestDeep(value, depth, rng, "note");
    expectFinding(body, kind, path, value);
    // and after a JSON round trip, as the server sees it
    expectFinding(JSON.parse(JSON.stringify(body)), kind, path, value);
  }
}

describe("BIP-39 mnemonics", () => {
  it.each(MNEMONIC_WORD_COUNTS)("rejects real %i-word mnemonics, top level and nested", (n) => {
    const samples = rejections.filter((r) => r.kind === "BIP39_MNEMONIC" && r.value.split(" ").length === n);
    expect(samples).toHaveLength(3);
    samples.forEach((s, i) => checkRejection(s, n * 10 + i));
  });

  it("rejects the ways people paste them (case, separators, numbering, embedded in prose)", () => {
    const mnemonics = rejections.filter((r) => r.kind === "BIP39_MNEMONIC");
    expect(mnemonics.length).toBeGreaterThan(0);
    for (const m of mnemonics) {
      for (const v of mnemonicVariants(m.value)) {
        expect({ variant: v.label, finding: findKeyMaterial({ text: v.value }) }).toEqual({
          variant: v.label,
          finding: { kind: "BIP39_MNEMONIC", path: "/text" },
        });
      }
    }
  });

  it("rejects a mnemonic given as an array of words, reported at the array", () => {
    const mnemonics = rejections.filter((r) => r.kind === "BIP39_MNEMONIC");
    expect(mnemonics.length).toBeGreaterThan(0);
    for (const m of mnemonics) {
      const words = m.value.split(" ");
      expectFinding({ backup: { words } }, "BIP39_MNEMONIC", "/backup/words", m.value);
      expectFinding({ words: ["hello", 3, ...words.map((w) => ` ${w.toUpperCase()} `), null] }, "BIP39_MNEMONIC", "/words");
    }
  });

  it("agrees with validateMnemonic on random wordlist strings (seeded)", () => {
    const rng = mulberry32(39);
    const oracle = (words: string[]): boolean => {
      for (const size of MNEMONIC_WORD_COUNTS) {
        for (let s = 0; s + size <= words.length; s++) {
          if (validateMnemonic(words.slice(s, s + size).join(" "), wordlist)) return true;
        }
      }
      return false;
    };
    let positives = 0;
    for (let i = 0; i < 1500; i++) {
      const n = i < 1000 ? 12 : rng.pick([13, 15, 18, 21, 24]);
      const words = Array.from({ length: n }, () => rng.pick(wordlist));
      const expected = oracle(words);
      if (expected) positives++;
      const f = findKeyMaterial({ s: words.join(" ") });
      expect(f === null ? null : f.kind).toBe(expected ? "BIP39_MNEMONIC" : null);
    }
    // ~1/16 of 12-word strings have a valid checksum: both branches were exercised.
    expect(positives).toBeGreaterThan(40);
  });

  it("checks every window of a long run of wordlist words (no false positive without a valid checksum)", () => {
    const words = checksumFreeRun(mulberry32(7), 120);
    expect(findKeyMaterial({ s: words.join(" ") })).toBeNull();
    // …and finds a real mnemonic in the middle of such a run.
    const m = rejections.find((r) => r.kind === "BIP39_MNEMONIC" && r.value.split(" ").length === 18)!.value;
    const body = { s: [...words.slice(0, 50), m, ...words.slice(50)].join(" ") };
    expectFinding(body, "BIP39_MNEMONIC", "/s", m);
  });

  it("fails closed on a huge run crafted to defeat every checksum", () => {
    const words = checksumFreeRun(mulberry32(8), 1500);
    expectFinding({ s: words.join(" ") }, "BIP39_MNEMONIC", "/s");
  });

  it("passes a 12-word string with an invalid checksum and ordinary prose", () => {
    const rng = mulberry32(12);
    for (let i = 0; i < 50; i++) expect(findKeyMaterial({ s: invalidChecksumMnemonic(rng, 12) })).toBeNull();
    expect(findKeyMaterial({ s: "the quick brown fox jumps over the lazy dog" })).toBeNull();
    for (const p of PROSE_PARAGRAPHS) expect(findKeyMaterial({ note: p })).toBeNull();
    expect(findKeyMaterial(proseString(mulberry32(1), 200_000))).toBeNull();
  });
});

describe("probing agrees with a brute-force reference scan", () => {
  const B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
  const b58check = createBase58check(sha256);
  const PRIVATE_PREFIXES = ["xprv", "tprv", "yprv", "zprv", "uprv", "vprv", "Yprv", "Zprv", "Uprv", "Vprv"];
  const PUBLIC_PREFIXES = PRIVATE_PREFIXES.map((p) => p.slice(0, 1) + "pub");

  /** Every kind the contract's rules find in `s`, by tokenising it completely. */
  function reference(s: string): Set<string> {
    const kinds = new Set<string>();
    const words = [...s.matchAll(/[A-Za-z]+/g)].map((m) => m[0].toLowerCase());
    let run: string[] = [];
    const flush = () => {
      for (const size of MNEMONIC_WORD_COUNTS)
        for (let i = 0; i + size <= run.length; i++)
          if (validateMnemonic(run.slice(i, i + size).join(" "), wordlist)) kinds.add("BIP39_MNEMONIC");
      run = [];
    };
    for (const w of words) {
      if (wordlist.includes(w)) run.push(w);
      else flush();
    }
    flush();
    for (const m of s.matchAll(/[1-9A-HJ-NP-Za-km-z]+/g)) {
      const t = m[0];
      let data: Uint8Array | null;
      try {
        data = b58check.decode(t);
      } catch {
        data = null;
      }
      if ((t.length === 51 || t.length === 52) && data && (data[0] === 0x80 || data[0] === 0xef)) {
        if ((t.length === 51 && data.length === 33) || (t.length === 52 && data.length === 34 && data[33] === 1))
          kinds.add("WIF_PRIVATE_KEY");
      }
      if (t.length >= 100 && t.length <= 120 && PRIVATE_PREFIXES.some((p) => t.startsWith(p))) kinds.add("EXTENDED_PRIVATE_KEY");
      if (
        t.length >= 107 &&
        t.length <= 115 &&
        data &&
        data.length === 78 &&
        data[45] === 0 &&
        !PUBLIC_PREFIXES.some((p) => t.startsWith(p))
      )
        kinds.add("EXTENDED_PRIVATE_KEY");
    }
    return kinds;
  }

  it("on random mixtures of words, keys, base58 noise and separators (fixed seed)", () => {
    const rng = mulberry32(0xbeef);
    const real = rejections.filter((r) => ["BIP39_MNEMONIC", "WIF_PRIVATE_KEY", "EXTENDED_PRIVATE_KEY"].includes(r.kind));
    const pieces: (() => string)[] = [
      () => rng.pick(wordlist),
      () => rng.pick(wordlist),
      () => rng.pick(wordlist),
      () => rng.pick(["the", "of", "and", "quick", "a", "wallets", "xylophone", "I"]),
      () => rng.pick([" ", " ", " ", "\n", ", ", ". ", "1. ", " - ", "+", "/", " ".repeat(60), "0"]),
      () => Array.from({ length: 40 + rng.int(90) }, () => rng.pick(B58.split(""))).join(""),
      () => (rng.next() < 0.15 ? rng.pick(real).value : ""),
    ];
    // Second half: long runs of wordlist words (chance checksum windows, backward walks).
    const dense: (() => string)[] = [...Array(8).fill(pieces[0]!), pieces[3]!, pieces[4]!, pieces[4]!];
    let positives = 0;
    for (let i = 0; i < 400; i++) {
      const parts: string[] = [];
      const n = 5 + rng.int(80);
      const from = i < 200 ? pieces : dense;
      for (let j = 0; j < n; j++) parts.push(rng.pick(from)(), rng.next() < 0.7 ? " " : "");
      const s = parts.join("");
      const expected = reference(s);
      const f = findKeyMaterial({ s });
      if (expected.size > 0) positives++;
      if (f === null) expect({ s, expected: [...expected] }).toEqual({ s, expected: [] });
      else expect({ s, kind: f.kind, ok: expected.has(f.kind) }).toEqual({ s, kind: f.kind, ok: true });
    }
    expect(positives).toBeGreaterThan(80);
  });
});

describe("extended private keys", () => {
  it("rejects real xprv/tprv/yprv/zprv/uprv/vprv/Yprv/Zprv and Ltpv keys (master and derived)", () => {
    const samples = rejections.filter((r) => r.kind === "EXTENDED_PRIVATE_KEY" && !r.label.includes("random"));
    expect(samples.map((s) => s.label.split(" ")[0])).toEqual(
      expect.arrayContaining(["xprv", "tprv", "yprv", "zprv", "uprv", "vprv", "Yprv", "Zprv", "Ltpv"]),
    );
    samples.forEach((s, i) => checkRejection(s, 100 + i));
  });

  it("rejects an extended private key embedded in text", () => {
    const { value } = rejections.find((r) => r.label.startsWith("tprv"))!;
    expectFinding({ msg: `here is my key: ${value}. thanks` }, "EXTENDED_PRIVATE_KEY", "/msg", value);
    const ltpv = rejections.find((r) => r.label.startsWith("Ltpv"))!.value;
    expectFinding({ msg: `(${ltpv})` }, "EXTENDED_PRIVATE_KEY", "/msg", ltpv);
  });

  it("fails closed on base58 text that merely starts like one", () => {
    const samples = rejections.filter((r) => r.label.includes("random base58"));
    expect(samples.length).toBeGreaterThan(0);
    samples.forEach((s, i) => checkRejection(s, 200 + i));
  });

  it("passes the matching extended public keys", () => {
    for (const s of xpubs) expect({ label: s.label, f: findKeyMaterial({ xpub: s.value }) }).toEqual({ label: s.label, f: null });
  });
});

describe("PEM private keys", () => {
  it("rejects RSA (PKCS#1, PKCS#8, encrypted), EC (SEC1, PKCS#8), Ed25519, OpenSSH and DSA blocks", () => {
    const samples = rejections.filter((r) => r.kind === "PEM_PRIVATE_KEY");
    expect(samples).toHaveLength(8);
    samples.forEach((s, i) => checkRejection(s, 300 + i));
  });

  it("rejects a PEM block inside a larger string", () => {
    const { value } = rejections.find((r) => r.kind === "PEM_PRIVATE_KEY")!;
    expectFinding({ ticket: { body: `Hi, the key is below\n\n${value}\nRegards` } }, "PEM_PRIVATE_KEY", "/ticket/body", value);
  });

  it("passes PEM public keys and certificates-like text", () => {
    for (const s of pemPublic) expect(findKeyMaterial({ pem: s.value })).toBeNull();
    expect(findKeyMaterial({ s: "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----" })).toBeNull();
    expect(findKeyMaterial({ s: "----- private key handling -----" })).toBeNull();
  });
});

describe("WIF private keys", () => {
  it("rejects mainnet and testnet, compressed and uncompressed", () => {
    const samples = rejections.filter((r) => r.kind === "WIF_PRIVATE_KEY");
    expect(samples).toHaveLength(12);
    samples.forEach((s, i) => checkRejection(s, 400 + i));
  });

  it("rejects a WIF embedded in text", () => {
    const { value } = rejections.find((r) => r.kind === "WIF_PRIVATE_KEY")!;
    expectFinding({ note: `wif=${value};` }, "WIF_PRIVATE_KEY", "/note", value);
  });
});

describe("ML-DSA secret keys", () => {
  it("rejects ML-DSA-44/65/87 secret keys as hex, 0x-hex, HEX, base64 (padded, unpadded, url, wrapped)", () => {
    const samples = rejections.filter((r) => r.kind === "MLDSA_SECRET_KEY");
    expect(samples).toHaveLength(3 * 7);
    samples.forEach((s, i) => checkRejection(s, 500 + i));
  });

  it("rejects a secret key on its own lines inside a message (first/last line are text)", () => {
    const secretKeys = rejections.filter((r) => r.kind === "MLDSA_SECRET_KEY");
    expect(secretKeys.length).toBeGreaterThan(0);
    for (const s of secretKeys) {
      const msg = `Hello support, my key\n${s.value}\nthanks a lot`;
      expect({ label: s.label, f: findKeyMaterial({ msg }) }).toEqual({ label: s.label, f: { kind: "MLDSA_SECRET_KEY", path: "/msg" } });
    }
    const { value } = rejections.find((r) => r.kind === "MLDSA_SECRET_KEY" && r.label.endsWith("as hex"))!;
    expectFinding({ k: `mldsa_sk_${value}` }, "MLDSA_SECRET_KEY", "/k", value);
  });

  it("rejects a secret key serialised as a byte array (plain or Buffer JSON)", async () => {
    const { ml_dsa65 } = await import("@noble/post-quantum/ml-dsa.js");
    const { secretKey } = ml_dsa65.keygen();
    expectFinding({ key: { bytes: Array.from(secretKey) } }, "MLDSA_SECRET_KEY", "/key/bytes");
    expectFinding(JSON.parse(JSON.stringify({ k: Buffer.from(secretKey) })), "MLDSA_SECRET_KEY", "/k/data");
  });

  it("passes ML-DSA-44/65/87 public keys and signatures in every encoding and as byte arrays", () => {
    for (const m of pq) {
      for (const bytes of [m.publicKey, m.signature]) {
        for (const e of encodings(bytes)) {
          expect({ what: `${m.alg} ${bytes.length} B ${e.label}`, f: findKeyMaterial({ v: e.value }) }).toEqual({
            what: `${m.alg} ${bytes.length} B ${e.label}`,
            f: null,
          });
        }
        expect(findKeyMaterial({ v: Array.from(bytes) })).toBeNull();
        const wrapped = `signed by\n${encodings(bytes)[6]!.value}\nend of message`;
        expect(findKeyMaterial({ v: wrapped })).toBeNull();
      }
    }
  });
});

describe("legitimate corpus", () => {
  it("passes every legitimate value alone, in an object, and as an object key", () => {
    expect(atoms.length).toBeGreaterThan(60);
    for (const a of atoms) {
      const results = [findKeyMaterial(a.value), findKeyMaterial({ v: a.value }), findKeyMaterial({ [a.value]: 1 })];
      expect({ label: a.label, results }).toEqual({ label: a.label, results: [null, null, null] });
    }
  });

  it("passes a map keyed by unique addresses and hashes", () => {
    const rng = mulberry32(77);
    const map: Record<string, Json> = {};
    for (let i = 0; i < 5000; i++) map[i % 2 ? evmAddress(rng) : hash64(rng)] = { balance: String(i) };
    expect(findKeyMaterial(map)).toBeNull();
  });

  it("passes labels, prose and a body holding the whole corpus at once", () => {
    expect(findKeyMaterial({ labels: LABELS, prose: PROSE_PARAGRAPHS, atoms: atoms.map((a) => a.value) })).toBeNull();
  });

  it("property: random legitimate bodies never trigger (fixed seed)", () => {
    const rng = mulberry32(0xc0ffee);
    for (let i = 0; i < 400; i++) {
      const body = randomLegitBody(rng, atoms);
      const f = findKeyMaterial(JSON.parse(JSON.stringify(body)));
      if (f !== null) throw new Error(`body #${i} triggered ${f.kind} at ${f.path}`);
    }
  });
});

describe("paths and order", () => {
  it("never puts the value in the path, even when the secret is an object key", () => {
    for (const r of rejections) {
      const f1 = findKeyMaterial({ wallets: [{ [r.value]: true }] });
      expect(f1).toEqual({ kind: r.kind, path: "/wallets/0/~key" });
      const f2 = findKeyMaterial({ [r.value]: { inner: r.value } });
      expect(f2).toEqual({ kind: r.kind, path: "/~key" });
      for (const f of [f1!, f2!]) expect(f.path.includes(r.value)).toBe(false);
    }
  });

  it("escapes ~ and / in path segments (RFC 6901)", () => {
    const { value } = rejections.find((r) => r.kind === "WIF_PRIVATE_KEY")!;
    expectFinding({ "a/b": { "c~d": [0, value] } }, "WIF_PRIVATE_KEY", "/a~1b/c~0d/1", value);
  });

  it("returns the first finding in document order, depth-first", () => {
    const wif = rejections.find((r) => r.kind === "WIF_PRIVATE_KEY")!.value;
    const pem = rejections.find((r) => r.kind === "PEM_PRIVATE_KEY")!.value;
    expectFinding({ a: { b: [{ c: wif }] }, seed: 1, d: pem }, "WIF_PRIVATE_KEY", "/a/b/0/c");
    expectFinding({ seed: 1, a: { b: [{ c: wif }] } }, "KEY_NAME", "/seed");
    expectFinding([{ x: [pem] }, wif], "PEM_PRIVATE_KEY", "/0/x/0");
  });

  it("ignores non-string primitives and empty containers", () => {
    for (const v of [null, undefined, 0, 1.5, true, false, "", [], {}, [[[]]], { a: {} }]) expect(findKeyMaterial(v)).toBeNull();
  });
});

describe("deep nesting (explicit stack, no recursion)", () => {
  it("finds a secret 10,000 arrays deep", () => {
    const { value } = rejections.find((r) => r.kind === "WIF_PRIVATE_KEY")!;
    let body: unknown = value;
    for (let i = 0; i < 10_000; i++) body = [body];
    expectFinding(body, "WIF_PRIVATE_KEY", "/0".repeat(10_000), value);
  });

  it("finds a key name 10,000 objects deep in a parsed body", () => {
    const text = '{"a":'.repeat(10_000) + '{"seed":null}' + "}".repeat(10_000);
    expectFinding(JSON.parse(text), "KEY_NAME", "/a".repeat(10_000) + "/seed");
  });

  it("walks 100,000 levels of clean nesting", () => {
    let body: unknown = { label: "bottom" };
    for (let i = 0; i < 100_000; i++) body = i % 2 ? [body] : { child: body };
    expect(findKeyMaterial(body)).toBeNull();
  });
});

describe("large and adversarial inputs", () => {
  // How fast it scans is measured by bench/key-material-guard.ts (timing assertions do not go in
  // tests); these check that large and adversarial inputs are scanned without false positives.
  it("scans a realistic 1 MB body and a 1 MB prose string without a false positive", () => {
    const { text } = realisticBody(
      mulberry32(1),
      1 << 20,
      pq.filter((m) => m.alg === "ML-DSA-87"),
    );
    expect(text.length).toBeGreaterThan(1 << 20);
    expect(findKeyMaterial(JSON.parse(text))).toBeNull();
    expect(findKeyMaterial(proseString(mulberry32(2), 1 << 20))).toBeNull();
  });

  it("finds nothing in adversarial near-miss strings (hex runs, WIF-shaped base58, stop words)", () => {
    const rng = mulberry32(3);
    const hexish = Array.from({ length: 200 }, () => "ab".repeat(2559)).join(" "); // many near-miss hex runs
    const b58ish = Array.from({ length: 9000 }, () => "5" + "H".repeat(50)).join(" "); // WIF-shaped, bad checksum
    const words = Array.from({ length: 150_000 }, () => rng.pick(["the", "a", "about", "of", "and", "to"])).join(" ");
    for (const s of [hexish, b58ish, words]) expect(findKeyMaterial({ s })).toBeNull();
  });
});
