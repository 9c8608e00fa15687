/**
 * API-key check cost after the first use (issue 3: "well under a millisecond"): the
 * Authenticator on a cache hit, beside the bare HMAC-SHA256 it must compute, in the same run.
 *
 *   ./qc pnpm --filter @qc/bench auth
 *
 * Uses DATABASE_URL when set, otherwise a throw-away embedded PostgreSQL (only the first,
 * uncached check reads it; the lockout answer is cached for 1 s and refreshed as it would be).
 */
import { createHmac, randomBytes } from "node:crypto";
import { Authenticator, createLogger } from "@qc/core";
import { createDatabase } from "@qc/db";
import { benchTenant } from "./api-setup";
import { benchDatabase } from "./database";

const bench = await benchDatabase("qc-bench-auth");
try {
  const url = bench.url;
  const database = createDatabase({ url });
  const pepper = randomBytes(32);
  const { secret, authorization } = await benchTenant(database.db, pepper);
  const authenticator = new Authenticator({ database, pepper, now: () => new Date(), log: createLogger("bench", "silent") });
  const request = { authorization, ip: "127.0.0.1", requestId: "bench" };

  const first = performance.now();
  await authenticator.authenticate(request);
  const firstMs = performance.now() - first;

  const n = 50_000;
  const time = async (fn: () => unknown) => {
    const start = performance.now();
    for (let i = 0; i < n; i++) await fn();
    return ((performance.now() - start) * 1000) / n; // µs per call
  };
  const hmacUs = await time(() => createHmac("sha256", pepper).update(secret).digest("hex"));
  const authUs = await time(() => authenticator.authenticate(request));
  console.log(`first (uncached) check: ${firstMs.toFixed(2)} ms`);
  console.log(
    `cached check: ${authUs.toFixed(2)} µs  | bare HMAC-SHA256: ${hmacUs.toFixed(2)} µs  | ratio ${(authUs / hmacUs).toFixed(2)}×`,
  );
  console.log(JSON.stringify({ firstMs, cachedUs: authUs, hmacUs, ratio: authUs / hmacUs, calls: n }));
  await authenticator.close();
  await database.close();
} finally {
  await bench.dispose();
}
