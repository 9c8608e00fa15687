/**
 * Row-id cost (issue 15, the create's CPU): `newRowId()` from @qc/db (UUID v7, random bits from a
 * pooled 4 KiB buffer) against `uuid`'s `v7()` as the create used it before (16 bytes asked of the
 * system generator per id), with Node's `crypto.randomUUID()` (version 4, its own buffered
 * entropy) as the floor, measured in the same run: rounds alternate the three, and the figures
 * are medians. No database.
 *
 *   ./qc pnpm --filter @qc/bench ids
 *   BENCH_IDS=500000 BENCH_ROUNDS=7 ./qc pnpm --filter @qc/bench ids
 *
 * Writes bench/results/row-ids-<time>.json.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { v7 } from "uuid";
import { newRowId } from "@qc/db";

const perRound = Number(process.env.BENCH_IDS ?? 200_000);
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
const candidates = { newRowId: () => newRowId(), uuidV7: () => v7(), randomUUID: () => randomUUID() } satisfies Record<
  string,
  () => string
>;
type Name = keyof typeof candidates;

/** ns per id over `perRound` ids; the last id is kept so the loop is not optimised away. */
let sink = "";
function time(make: () => string): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < perRound; i++) sink = make();
  return Number(process.hrtime.bigint() - start) / perRound;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
for (const make of Object.values(candidates)) time(make); // warm-up: JIT, the pool's first fill
const ns: Record<Name, number[]> = { newRowId: [], uuidV7: [], randomUUID: [] };
for (let round = 0; round < rounds; round++) {
  for (const name of Object.keys(candidates) as Name[]) ns[name].push(time(candidates[name]));
}
if (sink.length !== 36) throw new Error(`unexpected id ${sink}`);

const result = {
  at: new Date().toISOString(),
  machine: { cpus: cpus().length, model: cpus()[0]?.model, load: loadavg()[0] },
  idsPerRound: perRound,
  rounds,
  nsPerId: Object.fromEntries(Object.entries(ns).map(([name, values]) => [name, { median: median(values), rounds: values }])),
  ratios: {
    uuidV7OverNewRowId: median(ns.uuidV7) / median(ns.newRowId),
    newRowIdOverRandomUUID: median(ns.newRowId) / median(ns.randomUUID),
  },
};
console.log(`ids per round ${perRound}, ${rounds} rounds, load ${loadavg()[0]!.toFixed(1)}`);
for (const [name, values] of Object.entries(ns))
  console.log(`${name.padEnd(12)} ${median(values).toFixed(0).padStart(6)} ns per id  [${values.map((v) => v.toFixed(0)).join(", ")}]`);
console.log(
  `uuid v7() ÷ newRowId(): ${result.ratios.uuidV7OverNewRowId.toFixed(1)}× the time; newRowId() ÷ randomUUID(): ${result.ratios.newRowIdOverRandomUUID.toFixed(2)}×`,
);
mkdirSync(new URL("./results/", import.meta.url), { recursive: true });
writeFileSync(new URL(`./results/row-ids-${Date.now()}.json`, import.meta.url), JSON.stringify(result, null, 2));
