/**
 * Micro-benchmark of the key-material guard (apps/web/src/guards/key-material/).
 *
 *   ./qc pnpm --filter @qc/bench guard [--strict]
 *
 * Builds ~1 MB JSON bodies, then for each one alternates, N times:
 *   baseline   JSON.parse(text)
 *   total      JSON.parse(text) + findKeyMaterial(value)
 *   guard      findKeyMaterial(value) on an already parsed value
 * and prints median / p99 in ms and the ratios against JSON.parse measured in the same run.
 * Target (issue): guard on a 1 MB body ≤ 10 ms. Bounded: stops sampling a body after its
 * time slice so that the whole run finishes in < 30 s. --strict exits 1 if a target body
 * misses the target. Imports the guard by relative path: no database, nothing to stop.
 */
import {
  checksumFreeRun,
  mldsaPublicMaterial,
  proseString,
  realisticBody,
  type MldsaPublicMaterial,
} from "../apps/web/test/fixtures/key-material/generate.js";
import { mulberry32 } from "../apps/web/test/fixtures/key-material/prng.js";
import { findKeyMaterial } from "../apps/web/src/guards/key-material/index.js";

const MB = 1 << 20;
const TARGET_MS = 10;
const started = performance.now();

interface Case {
  name: string;
  text: string;
  /** Counted against the ≤ 10 ms target (realistic bodies); the others are stress cases. */
  target: boolean;
  iterations: number;
  sliceMs: number;
}

function build(): Case[] {
  const rng = mulberry32(2024);
  const pq: MldsaPublicMaterial[] = mldsaPublicMaterial(mulberry32(87), ["ML-DSA-87"], 3);
  const realistic = realisticBody(rng, MB, pq).text;
  const prose = JSON.stringify(proseString(rng, MB));

  // Stress: many small objects (key-name checks dominate).
  const small: unknown[] = [];
  for (let size = 0; size < MB;) {
    const o = { id: small.length, label: "row", ok: true, h: Buffer.from(rng.bytes(8)).toString("hex"), tags: ["a", "b"] };
    small.push(o);
    size += JSON.stringify(o).length + 1;
  }
  // Stress: one string of wordlist words crafted so that no 12..24 window has a valid
  // checksum, repeated to 1 MB: exercises the mnemonic window budget (fails closed).
  const run = checksumFreeRun(mulberry32(5), 400).join(" ");
  const wordRun = JSON.stringify(run.repeat(Math.ceil(MB / run.length)));

  // Stress: a map keyed by unique addresses (key-name checks without memo hits).
  const byAddress: Record<string, unknown> = {};
  for (let size = 0; size < MB;) {
    const k = "0x" + Buffer.from(rng.bytes(20)).toString("hex");
    byAddress[k] = { balance: String(rng.int(1e9)), nonce: rng.int(1000) };
    size += k.length + 45;
  }
  // Adversarial: 1 MB of 111-char base58 tokens with no known prefix, each of which must be
  // base58-decoded and checked (extended-key path b); the worst case for the guard.
  const B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
  const tokens: string[] = [];
  for (let size = 0; size < MB; size += 114) {
    tokens.push("abcd" + Array.from({ length: 107 }, () => B58[rng.int(58)]).join(""));
  }

  return [
    {
      name: "realistic 1 MB body (records, prose, hashes, ML-DSA-87 pk hex + sig b64)",
      text: realistic,
      target: true,
      iterations: 150,
      sliceMs: 7000,
    },
    { name: "1 MB single string of English prose", text: prose, target: true, iterations: 150, sliceMs: 7000 },
    { name: "stress: 1 MB of small objects", text: JSON.stringify(small), target: false, iterations: 60, sliceMs: 4000 },
    { name: "stress: 1 MB wordlist-word run (rejected via budget)", text: wordRun, target: false, iterations: 60, sliceMs: 3000 },
    {
      name: "stress: 1 MB object keyed by unique addresses",
      text: JSON.stringify(byAddress),
      target: false,
      iterations: 40,
      sliceMs: 3000,
    },
    {
      name: "adversarial: 1 MB of 111-char base58 tokens (all decoded)",
      text: JSON.stringify(tokens),
      target: false,
      iterations: 30,
      sliceMs: 4000,
    },
  ];
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}
const fmt = (ms: number) => ms.toFixed(2).padStart(7);

function measure(c: Case) {
  const value = JSON.parse(c.text);
  const verdict = findKeyMaterial(value);
  // Warm-up (JIT) outside the measured samples.
  for (let i = 0; i < 5; i++) findKeyMaterial(JSON.parse(c.text));

  const base: number[] = [];
  const total: number[] = [];
  const guard: number[] = [];
  const t0 = performance.now();
  let sink = 0;
  for (let i = 0; i < c.iterations && performance.now() - t0 < c.sliceMs; i++) {
    let t = performance.now();
    const a = JSON.parse(c.text);
    base.push(performance.now() - t);

    t = performance.now();
    const b = JSON.parse(c.text);
    const f = findKeyMaterial(b);
    total.push(performance.now() - t);

    t = performance.now();
    const g = findKeyMaterial(a);
    guard.push(performance.now() - t);
    sink += (f === null ? 0 : 1) + (g === null ? 0 : 1);
  }
  for (const s of [base, total, guard]) s.sort((x, y) => x - y);
  return { value, verdict, base, total, guard, sink };
}

const cases = build();
console.log(
  `key-material guard benchmark (node ${process.version}); bodies built in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
let missed = false;
for (const c of cases) {
  const r = measure(c);
  const bm = quantile(r.base, 0.5);
  const tm = quantile(r.total, 0.5);
  const gm = quantile(r.guard, 0.5);
  const gp99 = quantile(r.guard, 0.99);
  console.log(`\n${c.name}`);
  console.log(
    `  size ${(c.text.length / MB).toFixed(2)} MB, n=${r.guard.length}, verdict: ${r.verdict === null ? "pass" : `${r.verdict.kind} at "${r.verdict.path}"`}`,
  );
  console.log(`  JSON.parse alone        median ${fmt(bm)} ms   p99 ${fmt(quantile(r.base, 0.99))} ms`);
  console.log(
    `  JSON.parse + guard      median ${fmt(tm)} ms   p99 ${fmt(quantile(r.total, 0.99))} ms   (${(tm / bm).toFixed(2)}× JSON.parse)`,
  );
  console.log(`  guard alone             median ${fmt(gm)} ms   p99 ${fmt(gp99)} ms   (${(gm / bm).toFixed(2)}× JSON.parse)`);
  if (c.target) {
    const ok = gm <= TARGET_MS;
    missed ||= !ok;
    console.log(`  target guard ≤ ${TARGET_MS} ms (median): ${ok ? "met" : "MISSED"}`);
  }
}
console.log(`\ntotal ${((performance.now() - started) / 1000).toFixed(1)} s`);
if (missed && process.argv.includes("--strict")) process.exit(1);
