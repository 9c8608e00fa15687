/**
 * Deliberate crashes for recovery tests (DAEMON_CRASH_AFTER, refused in production by env.ts):
 * the daemon SIGKILLs itself at a named point, exactly as a power cut or an OOM kill would stop
 * it, with no cleanup, no graceful stop and no chance to finish the database write that follows.
 */
export const CRASH_POINTS = [
  /** Right after eth_sendRawTransaction returned for a broadcast, before the send is recorded. */
  "transfers.broadcast:sent",
  /** Inside the chain follower's database transaction of a block with deposits, before its commit (nothing of the block is kept). */
  "deposits.follow:block-written",
] as const;
export type CrashPoint = (typeof CRASH_POINTS)[number];

let armed: CrashPoint | undefined;

/** Arms one crash point for this process (main.ts, from the environment). */
export function armCrashPoint(point: CrashPoint | undefined): void {
  armed = point;
}

/** Kills the process right here when `point` is armed; does nothing otherwise. */
export function crashPoint(point: CrashPoint): void {
  if (armed === point) process.kill(process.pid, "SIGKILL");
}
