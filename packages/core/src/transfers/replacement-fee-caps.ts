/** EIP-1559 fee caps, in Qwei per gas. */
export interface FeeCaps {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/**
 * ⌈fee × 1.125⌉: the 12.5 % rise CONTRACT §17 asks of a speed-up or a cancellation over every
 * transaction already holding the nonce. Above the 10 % nodes require of a same-nonce replacement
 * (geth's `txpool.pricebump`, the devnet's REPLACEMENT_BUMP_PERCENT), rounded up so that a fee of a
 * few Qwei still rises.
 */
export function bumpFee(fee: bigint): bigint {
  return (fee * 9n + 7n) / 8n;
}

/**
 * The fee caps of a new transaction at a nonce others already hold (CONTRACT §17): each cap the
 * highest of what the caller asked, 12.5 % above the highest cap among the nonce's live
 * transactions (`live`: the one replaced, its other speed-ups and cancellations), and what the
 * chain needs now (`market`: the release's own estimate from the latest base fee). The tip never
 * exceeds the fee cap (an EIP-1559 rule): a tip asked above it raises the cap to it.
 */
export function replacementFeeCaps(input: { live: readonly FeeCaps[]; market: FeeCaps; requested: Partial<FeeCaps> }): FeeCaps {
  const max = (...values: bigint[]) => values.reduce((a, b) => (a > b ? a : b), 0n);
  const maxPriorityFeePerGas = max(
    input.requested.maxPriorityFeePerGas ?? 0n,
    input.market.maxPriorityFeePerGas,
    ...input.live.map((caps) => bumpFee(caps.maxPriorityFeePerGas)),
  );
  const maxFeePerGas = max(
    input.requested.maxFeePerGas ?? 0n,
    input.market.maxFeePerGas,
    ...input.live.map((caps) => bumpFee(caps.maxFeePerGas)),
    maxPriorityFeePerGas,
  );
  return { maxFeePerGas, maxPriorityFeePerGas };
}
