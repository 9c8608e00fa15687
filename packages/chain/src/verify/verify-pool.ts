import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import type { Worker } from "node:worker_threads";
import { Piscina } from "piscina";
import { BaseError } from "../errors/base";
import { verifyImplementationFromEnv, type VerifyImplementationChoice } from "./env";
import { decodeVerifyRequest, type VerifyBytes, type VerifyRequest } from "./verify-input";
import { resolveVerifyImplementation, type VerifyImplementation } from "./verify-implementation";

export type { VerifyRequest } from "./verify-input";

export type CreateVerifyPoolParameters = {
  /** Worker threads. Default: one per core (`os.availableParallelism()`). */
  size?: number;
  /**
   * Verifications that may wait for a thread; one more is refused with `VerifyPoolBusyError`
   * instead of growing memory and latency without bound. Default: 256 per thread.
   */
  maxQueue?: number;
  /**
   * Threads started at once and replaced at once when one dies. Default 0: a thread starts
   * with the first verification that needs it (a process that never verifies pays nothing),
   * and one that died is replaced by the next verification.
   */
  minThreads?: number;
  /** A thread above `minThreads` idle this long exits. Default: never (a started thread stays warm). */
  idleTimeoutMs?: number;
  /**
   * `auto` (the native add-on when it was built, otherwise @noble/post-quantum), `native` (the
   * add-on or `NativeVerifyUnavailableError`), `noble`. Default: `QC_VERIFY_IMPL`, else `auto`.
   */
  implementation?: VerifyImplementationChoice;
  /** Told once, at creation, which implementation the pool runs and why (pino-compatible). */
  log?: { info(details: object, message: string): void };
};

export type VerifyPoolStats = {
  size: number;
  /** What the threads verify with: never changes for the life of the pool. */
  implementation: VerifyImplementation;
  /** Threads alive now. */
  threads: number;
  /** Verifications waiting for a thread. */
  queued: number;
  completed: number;
  /** Requests run again because the thread running them died. */
  retried: number;
};

export interface VerifyPool {
  /**
   * True only when the signature verifies over the message with this key and context.
   * Malformed input (wrong lengths, bad hex, context over 255 bytes) is `false` without
   * reaching a thread. Rejects only when the pool cannot answer: `VerifyPoolBusyError`,
   * `VerifyPoolClosedError`, or `VerifyWorkerError` (the thread died twice on this request).
   */
  verify(request: VerifyRequest): Promise<boolean>;
  readonly size: number;
  readonly implementation: VerifyImplementation;
  stats(): VerifyPoolStats;
  /** The live threads, for diagnostics (threadId, event-loop utilisation, terminate). */
  threads(): readonly Worker[];
  /** Waits for the verifications already accepted, then stops every thread. */
  close(): Promise<void>;
}

export type VerifyPoolBusyErrorType = VerifyPoolBusyError & { name: "VerifyPoolBusyError" };
/** Every thread is busy and the queue is full: the caller should answer "retry later". */
export class VerifyPoolBusyError extends BaseError {
  constructor({ maxQueue }: { maxQueue: number }) {
    super("The signature verification pool is saturated.", {
      metaMessages: [`${maxQueue} verifications are already waiting for a thread.`],
      name: "VerifyPoolBusyError",
    });
  }
}

export type VerifyPoolClosedErrorType = VerifyPoolClosedError & { name: "VerifyPoolClosedError" };
export class VerifyPoolClosedError extends BaseError {
  constructor() {
    super("The signature verification pool is closed.", { name: "VerifyPoolClosedError" });
  }
}

export type VerifyWorkerErrorType = VerifyWorkerError & { name: "VerifyWorkerError" };
/** A verification thread failed on this request (it died, and died again on the retry). */
export class VerifyWorkerError extends BaseError {
  constructor({ cause }: { cause: unknown }) {
    super("A signature verification thread failed.", { cause, name: "VerifyWorkerError" });
  }
}

const WORKER_FILE = fileURLToPath(new URL("./verify-worker.mjs", import.meta.url));

/**
 * ML-DSA-87 verification on a pool of worker threads, so a verification (milliseconds of CPU
 * with noble) never holds up the event loop of the web process or the daemon, and
 * verifications use every core. The threads run PQClean's verify through the @qc/mldsa-native
 * add-on when it was built, otherwise `@noble/post-quantum` (the same code as
 * `verifyQuantumSigningHash`); which one is fixed at creation, logged and in `stats()`.
 * Bounded queue; a thread that dies is replaced and the request it was running is tried once more.
 */
export function createVerifyPool(parameters: CreateVerifyPoolParameters = {}): VerifyPool {
  const size = parameters.size ?? availableParallelism();
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`verify pool size must be a positive integer, got ${size}`);
  const maxQueue = parameters.maxQueue ?? size * 256;
  const resolved = resolveVerifyImplementation(parameters.implementation ?? verifyImplementationFromEnv());
  const { implementation } = resolved;
  parameters.log?.info(
    {
      verifyImplementation: implementation,
      verifyThreads: size,
      nativeAddon: resolved.addonPath,
      nativeUnavailable: resolved.nativeUnavailable,
    },
    `ML-DSA-87 verify pool: ${implementation === "native" ? "native PQClean add-on" : "@noble/post-quantum"} on up to ${size} threads`,
  );
  const piscina = new Piscina<VerifyBytes, boolean>({
    filename: WORKER_FILE,
    workerData: { implementation, addonPath: resolved.addonPath },
    name: "default",
    maxThreads: size,
    minThreads: Math.min(parameters.minThreads ?? 0, size),
    idleTimeout: parameters.idleTimeoutMs ?? Infinity,
    maxQueue,
    recordTiming: false,
  });
  let closing = false;
  let retried = 0;
  // A thread that dies while idle is reported as an "error" event (an unhandled one would end
  // the process); the pool has already dropped it and starts another when one is needed.
  piscina.on("error", () => {});

  async function run(task: VerifyBytes): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      if (closing) throw new VerifyPoolClosedError();
      try {
        return await piscina.run(task);
      } catch (error) {
        if (closing) throw new VerifyPoolClosedError();
        if (error instanceof Error && error.message === "Task queue is at limit") throw new VerifyPoolBusyError({ maxQueue });
        // Verification is a pure function: running it again on a fresh thread is safe. Only
        // once, so an input that kills threads cannot keep the pool restarting them.
        if (attempt >= 2) throw new VerifyWorkerError({ cause: error });
        retried++;
      }
    }
  }

  return {
    size,
    implementation,
    verify(request) {
      const task = decodeVerifyRequest(request);
      if (!task) return Promise.resolve(false);
      return run(task);
    },
    threads: () => piscina.threads,
    stats: () => ({
      size,
      implementation,
      threads: piscina.threads.length,
      queued: piscina.queueSize,
      completed: piscina.completed,
      retried,
    }),
    async close() {
      if (closing) return;
      closing = true;
      await piscina.close();
    },
  };
}
