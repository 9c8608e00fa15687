import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { SignerError } from "./errors";

const RETRY_MS = 50;

/**
 * Runs `fn` while holding `<path>.lock`, so that two signer processes (say `enroll` and
 * `register-wallet`) never read the same keystore, add keys and overwrite each other's: a
 * lost update would lose the secret of a key the service already holds. A lock left by a
 * process that died (its pid is gone) is taken over.
 */
export async function withFileLock<T>(
  path: string,
  fn: () => Promise<T> | T,
  options: { timeoutMs?: number; busy?: string } = {},
): Promise<T> {
  const lockPath = `${path}.lock`;
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  for (;;) {
    try {
      const fd = openSync(lockPath, "wx", 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (holderIsGone(lockPath)) {
        try {
          unlinkSync(lockPath);
        } catch {
          // another process took it over first
        }
        continue;
      }
      if (Date.now() > deadline) {
        throw new SignerError(
          options.busy ?? `another signer process is updating ${path} (lock ${lockPath}); try again when it has finished`,
        );
      }
      await sleep(RETRY_MS);
    }
  }
  try {
    return await fn();
  } finally {
    try {
      unlinkSync(lockPath);
    } catch {
      // removed by a takeover; nothing to release
    }
  }
}

function holderIsGone(lockPath: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(lockPath, "utf8"));
  } catch {
    return false;
  }
  // An empty or half-written lock file belongs to a process that is creating it right now.
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}
