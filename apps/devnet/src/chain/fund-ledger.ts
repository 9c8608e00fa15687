import type { Address } from "viem";

type FundEvent = { address: Address; amount: bigint; afterBlock: bigint };

/**
 * `devnet_fund` credits with the head they were made on. They are operator actions, not
 * chain history, so a reorg that drops their block re-applies them on the new head.
 */
export class FundLedger {
  private events: FundEvent[] = [];

  add(address: Address, amount: bigint, afterBlock: bigint): void {
    this.events.push({ address, amount, afterBlock });
  }

  /**
   * The credits made on or after block `from`, in the order they were made, now recorded
   * against `newHead`: the caller applies them again on top of the rewound state.
   */
  rebase(from: bigint, newHead: bigint): { address: Address; amount: bigint }[] {
    const moved: FundEvent[] = [];
    this.events = this.events.map((event) => {
      if (event.afterBlock < from) return event;
      moved.push(event);
      return { ...event, afterBlock: newHead };
    });
    return moved.map(({ address, amount }) => ({ address, amount }));
  }
}
