/**
 * A FIFO async mutex. Every read or write of the live EVM state, the block store and the
 * mempool runs under it, so an `eth_call` never sees a half-mined block.
 */
export class AsyncLock {
  private tail: Promise<void> = Promise.resolve();

  run<T>(fn: () => Promise<T> | T): Promise<T> {
    const result = this.tail.then(fn);
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
