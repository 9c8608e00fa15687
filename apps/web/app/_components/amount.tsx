"use client";

import { BASE_UNIT, formatGasPrice, formatUnits, maxFeeCost } from "../../src/dashboard/amounts";
import { CopyButton } from "./copy-button";
import { useAssets } from "./use-assets";

type AmountProps = {
  /** Base units: a decimal integer string (CONTRACT §1). */
  raw: string;
  /** The asset's decimals; unknown (an asset that is not the organization's), the base units are shown as such. */
  decimals: number | undefined;
  symbol?: string | undefined;
  /** A button copying the exact base units; off where a table would repeat it on every row. */
  copy?: boolean;
};

/**
 * An amount as a person reads it: the asset's units with its decimals applied (bigint arithmetic,
 * amounts.ts) and its symbol, `1.25 Q`; the exact base units on hover (`title`, `data-raw`) and,
 * with `copy`, a button that copies them. Screen readers read the amount; the button names the
 * base units it copies.
 */
export function Amount({ raw, decimals, symbol, copy = true }: AmountProps) {
  const shown =
    decimals === undefined ? (
      <span className="amount" title={`${raw} base units`} data-raw={raw}>
        {raw} base units
      </span>
    ) : (
      <span className="amount" title={`${raw} base units`} data-raw={raw}>
        {formatUnits(raw, decimals)}
        {symbol ? ` ${symbol}` : ""}
      </span>
    );
  if (!copy) return shown;
  return (
    <span className="amount-copy">
      {shown}
      <CopyButton value={raw} label="Copy" accessibleName={`Copy ${raw} base units`} className="copy-base-units" />
    </span>
  );
}

/**
 * An amount of one of the organization's assets by its id: decimals and symbol from the assets
 * list; while that list loads, an ellipsis (never the bare base units, which would read as a huge
 * number for a moment); an asset that is not the organization's, its base units as such.
 */
export function AssetAmount({ raw, assetId, copy = true }: { raw: string; assetId: string | null; copy?: boolean }) {
  const { byId, query } = useAssets();
  const asset = assetId ? byId.get(assetId) : undefined;
  if (!asset && query.isPending)
    return (
      <span className="amount muted" title={`${raw} base units`} data-raw={raw} aria-busy="true">
        …
      </span>
    );
  return <Amount raw={raw} decimals={asset?.decimals} symbol={asset?.symbol} copy={copy} />;
}

type FeeCaps = { gasLimit: string; maxFeePerGas: string; maxPriorityFeePerGas: string };

/** A price per unit of gas in Gqwei (amounts.ts, GAS_PRICE_UNIT), the exact Qwei per gas on hover. */
export function GasPrice({ raw }: { raw: string }) {
  return (
    <span className="gas-price" title={`${raw} ${BASE_UNIT}/gas`} data-raw={raw}>
      {formatGasPrice(raw)}
    </span>
  );
}

/**
 * A transaction's fee caps (CONTRACT §17): the per-gas prices in Gqwei, the gas limit, and the most
 * the fee can cost — gas limit × max fee per gas — in the network's native asset: the `<dt>`s and
 * `<dd>`s of a facts list.
 */
export function FeeCapsFacts({ fee, networkCode }: { fee: FeeCaps; networkCode: string }) {
  const { assets } = useAssets();
  const native = assets.find((asset) => asset.networkCode === networkCode && asset.kind === "NATIVE");
  return (
    <>
      <dt>Max fee</dt>
      <dd data-testid="max-fee-cost">
        <AssetAmount raw={maxFeeCost(fee)} assetId={native?.id ?? null} />
        <div className="muted small">at most: gas limit × max fee per gas</div>
      </dd>
      <dt>Fee per gas</dt>
      <dd>
        <div data-testid="max-fee-per-gas">
          max <GasPrice raw={fee.maxFeePerGas} />
        </div>
        <div data-testid="max-priority-fee-per-gas">
          priority <GasPrice raw={fee.maxPriorityFeePerGas} />
        </div>
      </dd>
      <dt>Gas limit</dt>
      <dd data-testid="gas-limit">{fee.gasLimit} gas</dd>
    </>
  );
}
