import { randomFillSync } from "node:crypto";
import { v7 } from "uuid";

/**
 * Random bytes for row ids, drawn from the system's generator 4 KiB at a time (256 ids), the way
 * Node's own `randomUUID()` buffers its entropy. `uuid`'s `v7()` asks the generator for 16 bytes
 * per id, and one call costs ~5 µs on our machines whatever its size (bench/row-ids.ts); a create
 * makes five ids (its row, history, audit row, event and stored answer). Each process and each
 * worker thread has its own pool (module state); nothing here forks a process with a filled pool.
 */
const POOL_BYTES = 4096;
const pool = new Uint8Array(POOL_BYTES);
let used = POOL_BYTES;

function random16(): Uint8Array {
  if (used + 16 > POOL_BYTES) {
    randomFillSync(pool);
    used = 0;
  }
  const bytes = pool.subarray(used, used + 16);
  used += 16;
  return bytes;
}

/** This process's last id: its millisecond and counter (RFC 9562 §6.2, method 1, as `uuid` keeps them). */
let lastMs = -Infinity;
let counter = 0;

/**
 * A new row id: a UUID version 7 (RFC 9562), time-ordered like `uuid`'s `v7()` with no options —
 * within one millisecond a counter seeded from the random bits and incremented per id, so the ids
 * one process makes sort in the order it made them — with the random bits from the pool above.
 */
export function newRowId(): string {
  const random = random16();
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    counter = ((random[6]! & 0x7f) << 24) | (random[7]! << 16) | (random[8]! << 8) | random[9]!;
  } else {
    counter = (counter + 1) | 0;
    if (counter === 0) lastMs++;
  }
  return v7({ random, msecs: lastMs, seq: counter });
}
