import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import type { Worker } from "node:worker_threads";
import { Piscina } from "piscina";
import type { Hex } from "viem";
import { BaseError } from "../errors/base";
import { MLDSA87_PUBLIC_KEY_LENGTH, MLDSA87_SIGNATURE_LENGTH } from "../protocol/constants";
import { bytesFromInput } from "../protocol/encoding";

/**
 * One ML-DSA-87 (FIPS 204) verification. The message is either raw bytes (a string is its
 * UTF-8 text, as for ownership proofs) or a 32-byte signing hash (hex or bytes, as for
 * `0x51` transactions). The context is the FIPS 204 context string, at most 255 bytes.
 */
export type VerifyRequest = {
  publicKey: Uint8Array | Hex | string;
  signature: Uint8Array | Hex | string;
  context: string | Uint8Array;
} & ({ message: Uint8Array | string; signingHash?: undefined } | { signingHash: Uint8Array | Hex | string; message?: undefined });

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
};

export type VerifyPoolStats = {
  size: number;
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

type WorkerTask = { publicKey: Uint8Array; message: Uint8Array; signature: Uint8Array; context: Uint8Array };

const WORKER_FILE = fileURLToPath(new URL("./verify-worker.mjs", import.meta.url));
const MAX_CONTEXT_BYTES = 255;
const utf8 = new TextEncoder();

/**
 * ML-DSA-87 verification on a pool of worker threads (`@noble/post-quantum`, the same code as
 * `verifyQuantumSigningHash`), so a verification (milliseconds of CPU) never holds up the
 * event loop of the web process or the daemon, and verifications use every core. Bounded
 * queue; a thread that dies is replaced and the request it was running is tried once more.
 */
export function createVerifyPool(parameters: CreateVerifyPoolParameters = {}): VerifyPool {
  const size = parameters.size ?? availableParallelism();
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`verify pool size must be a positive integer, got ${size}`);
  const maxQueue = parameters.maxQueue ?? size * 256;
  const piscina = new Piscina<WorkerTask, boolean>({
    filename: WORKER_FILE,
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

  async function run(task: WorkerTask): Promise<boolean> {
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
    verify(request) {
      const task = toWorkerTask(request);
      if (!task) return Promise.resolve(false);
      return run(task);
    },
    threads: () => piscina.threads,
    stats: () => ({ size, threads: piscina.threads.length, queued: piscina.queueSize, completed: piscina.completed, retried }),
    async close() {
      if (closing) return;
      closing = true;
      await piscina.close();
    },
  };
}

/** The bytes a thread needs, or undefined when the request cannot verify whatever the signature. */
function toWorkerTask(request: VerifyRequest): WorkerTask | undefined {
  const publicKey = bytesFromInput(request.publicKey, MLDSA87_PUBLIC_KEY_LENGTH);
  const signature = bytesFromInput(request.signature, MLDSA87_SIGNATURE_LENGTH);
  const context = typeof request.context === "string" ? utf8.encode(request.context) : request.context;
  let message: Uint8Array | undefined;
  if (request.signingHash !== undefined) message = bytesFromInput(request.signingHash, 32);
  else if (typeof request.message === "string") message = utf8.encode(request.message);
  else if (request.message instanceof Uint8Array) message = request.message;
  if (!publicKey || !signature || !message || !(context instanceof Uint8Array) || context.length > MAX_CONTEXT_BYTES) return undefined;
  return { publicKey, signature, message, context };
}
