import { getPendingNonce, NETWORKS, type NetworkCode } from "@qc/chain";
import {
  findSourceNonces,
  findWalletRow,
  nonceGaps,
  type NewTransactionRow,
  type TransactionRow,
  type TransferSource,
} from "@qc/db/queries";
import { systemActor } from "../audit/actor";
import { chainUnavailable } from "../balances/chain-errors";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { insertReleasedTransaction } from "./insert-released-transaction";
import { quoteFees, transferCall, TransferUnaffordableError, TransferWouldRevertError, type TransferFeeQuote } from "./quote-transfer-fees";

type FillDeps = Pick<ServiceDeps, "db" | "jobs" | "now" | "config" | "chain">;

/**
 * Gap repair (CONTRACT §6 and §17; docs/transfers.md, "Fills"): every nonce of the source left
 * unused below a nonce it holds or used — its transaction rejected, expired, cancelled, failed or
 * blocked before broadcast, or dropped by the chain for good — that no queued transfer took gets a
 * NONCE_FILL: zero value from the source to itself at exactly that nonce, created released
 * (`insertReleasedTransaction`: PENDING_SIGNATURE, its own unsigned transaction and signing hash,
 * a signing deadline) and signed in the signer like any other; no signature is ever re-used. A
 * fill that itself ends unused leaves the same gap, which the next run fills again.
 *
 * Run by release-next after it released what it could (queued transfers take the lowest free
 * nonces first), and every end of a nonce holder enqueues release-next. Most runs find no gap in
 * what the database alone knows (one prepared read) and ask the chain nothing; otherwise the
 * chain is asked (pending nonce, fees and gas of a self-send) outside the lock, and the gaps are
 * taken again under the source wallet's lock, where the fills are inserted: two runs at once
 * (two release-next jobs) are serialized by that lock and the second finds the nonce taken by the
 * first's fill, so one nonce never gets two fills. Nothing is filled for an archived or watch-only
 * wallet (nothing of it is broadcast any more).
 */
export async function fillNonceGaps(deps: FillDeps, source: TransferSource): Promise<TransactionRow[]> {
  // Gaps against the floor the database knows (1 + the highest nonce used on chain) are a superset
  // of the real ones: the chain's floor is never below it.
  if (nonceGaps(await findSourceNonces(deps.db, { ...source, chainFloor: null })).length === 0) return [];
  const wallet = await findWalletRow(deps.db, { tenantId: source.tenantId, walletId: source.sourceWalletId });
  if (!wallet || wallet.status !== "ACTIVE" || wallet.type === "WATCH_ONLY") return [];
  const networkCode = source.networkCode as NetworkCode;
  const address = wallet.address as `0x${string}`;
  const [fees, pendingNonce] = await Promise.all([
    quoteFillFees(deps, networkCode, address),
    getPendingNonce(deps.chain.client(networkCode), { address }).then(
      (nonce) => nonce.pending,
      (error: unknown) => {
        throw chainUnavailable(networkCode, error);
      },
    ),
  ]);

  return deps.db.transaction(async (tx) => {
    const [locked, nonces] = await Promise.all([
      findWalletRow(tx, { tenantId: source.tenantId, walletId: source.sourceWalletId, lock: "no key update" }),
      findSourceNonces(tx, { ...source, chainFloor: pendingNonce }),
    ]);
    if (!locked || locked.status !== "ACTIVE" || locked.type === "WATCH_ONLY") return [];
    const fills: TransactionRow[] = [];
    for (const nonce of nonceGaps(nonces)) {
      fills.push(
        await insertReleasedTransaction(tx, deps, {
          values: nonceFillValues(deps, source, address, nonce),
          asset: null,
          release: { nonce, fees },
          actor: systemActor("transfers.release-next"),
          auditDetails: { reason: "the nonce was left unused below a nonce the source holds or used" },
        }),
      );
    }
    return fills;
  });
}

/** A fill's intent: zero value from the source to itself, no asset, no data (CONTRACT §17). */
function nonceFillValues(deps: Pick<ServiceDeps, "config">, source: TransferSource, address: string, nonce: number): NewTransactionRow {
  const networkCode = source.networkCode as NetworkCode;
  return {
    tenantId: source.tenantId,
    type: "NONCE_FILL",
    networkCode,
    chainId: NETWORKS[networkCode].chainId,
    sourceWalletId: source.sourceWalletId,
    sourceAddress: address,
    destinationAddress: address,
    assetId: null,
    amount: "0",
    note: `fills nonce ${nonce}, left unused below this wallet's later transactions`,
    requiredConfirmations: deps.config.transfers.requiredConfirmations[networkCode],
  };
}

/**
 * A fill's fee caps and gas, as a release quotes them (the chain's fees, its gas estimate × the
 * margin). A source that cannot pay a fill's fee cannot pay the transactions waiting behind the
 * gap either: the job retries (503) until it can or dead-letters, never signs above the cap.
 */
async function quoteFillFees(
  deps: Pick<ServiceDeps, "chain" | "config">,
  networkCode: NetworkCode,
  address: `0x${string}`,
): Promise<TransferFeeQuote> {
  try {
    return await quoteFees(deps, {
      networkCode,
      from: address,
      call: transferCall({ chainId: NETWORKS[networkCode].chainId, destinationAddress: address, amount: 0n, token: null }),
    });
  } catch (error) {
    if (error instanceof TransferUnaffordableError || error instanceof TransferWouldRevertError)
      throw new AppError("UNAVAILABLE", `a nonce fill cannot be quoted: ${error.message}`, { cause: error });
    throw error;
  }
}
