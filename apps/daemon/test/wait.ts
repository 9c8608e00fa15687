import type { PgBoss } from "pg-boss";

/** Polls pg-boss until the job reaches one of the states (bounded; fails with the last state). */
export async function waitForJobState(boss: PgBoss, queue: string, id: string, states: string[], timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  let last: string | undefined;
  while (Date.now() < deadline) {
    const job = await boss.getJobById(queue, id);
    last = job?.state;
    if (job && states.includes(job.state)) return job;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`job ${id} on ${queue} stayed in ${last ?? "nowhere"}, wanted ${states.join("|")}`);
}

export async function waitFor<T>(probe: () => Promise<T | undefined | null | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("condition not met in time");
}
