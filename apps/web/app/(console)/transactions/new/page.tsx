"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import { parseUnits } from "../../../../src/dashboard/amounts";
import type { NetworkCode } from "../../../../src/dashboard/router-types";
import { useTRPC, useTRPCClient } from "../../../../src/dashboard/trpc";
import { describeFailure } from "../../../../src/dashboard/api-error";
import { AddressField, FormError, NetworkField, TextAreaField, TextField } from "../../../_components/field";
import { formFailure } from "../../../_components/form-failure";
import { PickOne } from "../../../_components/pickers";
import { assetOption, vaultOption, walletOption } from "../../../_components/use-picker-options";
import { useSignedInMember } from "../../../_components/use-signed-in-member";
import { AddressBookPicker } from "../../address-book/address-book-picker";
import { useActiveEntriesFor } from "../../address-book/use-address-book";

type TransferInput = {
  networkCode: NetworkCode;
  sourceWalletId: string;
  destinationAddress: string;
  assetId: string;
  amount: string;
  externalId?: string;
  note?: string;
};

/** Only a role that may `transact` creates transfers (CONTRACT §14); the others are told so instead of the form. */
export default function NewTransferPage() {
  const { me, can } = useSignedInMember();
  if (can("transact")) return <NewTransferForm />;
  return (
    <>
      <h1>New transfer</h1>
      <p className="notice" role="status">
        Your role, {me?.member.role}, does not create transfers. An OWNER or ADMIN of your organization can change it on the Members page.
      </p>
    </>
  );
}

/**
 * A transfer as the API takes it, with the idempotency key the API requires: one key per
 * submission, kept when the same submission is sent again after no answer arrived (so a lost
 * answer never makes a second transfer), and a new one as soon as the form changes.
 */
function NewTransferForm() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const router = useRouter();
  const [networkCode, setNetworkCode] = useState<NetworkCode>("QUANTUM_SANDBOX");
  const [vaultId, setVaultId] = useState("");
  const [sourceWalletId, setSourceWalletId] = useState("");
  const [destinationAddress, setDestinationAddress] = useState("");
  const [assetId, setAssetId] = useState("");
  const [amount, setAmount] = useState("");
  const [externalId, setExternalId] = useState("");
  const [note, setNote] = useState("");
  const [amountError, setAmountError] = useState<string | undefined>();
  const attempt = useRef<{ key: string; body: string } | null>(null);

  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    const network = params.get("networkCode");
    if (network === "QUANTUM_SANDBOX" || network === "QUANTUM_MAINNET") setNetworkCode(network);
    if (params.get("vaultId")) setVaultId(params.get("vaultId")!);
    if (params.get("sourceWalletId")) setSourceWalletId(params.get("sourceWalletId")!);
  }, []);

  const vaults = useQuery(trpc.vaults.list.queryOptions({ limit: 200, networkCode, status: "ACTIVE" }));
  const wallets = useQuery({ ...trpc.wallets.listByVault.queryOptions({ vaultAccountId: vaultId, limit: 200 }), enabled: vaultId !== "" });
  const assets = useQuery(trpc.assets.list.queryOptions({ networkCode, limit: 200 }));
  const asset = assets.data?.assets.find((a) => a.id === assetId);
  const sources = (wallets.data?.wallets ?? []).filter((w) => w.status === "ACTIVE" && w.type !== "WATCH_ONLY");
  const book = useActiveEntriesFor(networkCode, assetId);
  const inBook = book.entryFor(destinationAddress);

  useEffect(() => {
    if (!assetId && assets.data?.assets[0]) setAssetId(assets.data.assets.find((a) => a.kind === "NATIVE")?.id ?? assets.data.assets[0].id);
  }, [assets.data, assetId]);

  const create = useMutation({
    mutationFn: ({ input, idempotencyKey }: { input: TransferInput; idempotencyKey: string }) =>
      client.transactions.create.mutate(input, { context: { idempotencyKey } }),
    onSuccess: (tx) => router.push(`/transactions/${tx.id}`),
    onError: (error) => {
      // Only a request that never got an answer may be sent again under the same key.
      if (describeFailure(error).error !== "NETWORK") attempt.current = null;
    },
  });
  const failure = formFailure(
    create.error,
    ["networkCode", "sourceWalletId", "destinationAddress", "assetId", "amount", "externalId", "note"],
    {
      INVALID_ADDRESS: "destinationAddress",
      DUPLICATE_EXTERNAL_ID: "externalId",
      UNKNOWN_ASSET: "assetId",
      WATCH_ONLY_SOURCE: "sourceWalletId",
      WALLET_ARCHIVED: "sourceWalletId",
    },
  );

  const rawPreview = useMemo(() => (asset && amount ? parseUnits(amount, asset.decimals) : null), [asset, amount]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!asset) return;
    const parsed = parseUnits(amount, asset.decimals);
    if (!parsed.ok) return setAmountError(parsed.message);
    if (parsed.raw === "0") return setAmountError("must be greater than zero");
    setAmountError(undefined);
    const input: TransferInput = {
      networkCode,
      sourceWalletId,
      destinationAddress: destinationAddress.trim(),
      assetId,
      amount: parsed.raw,
      ...(externalId.trim() ? { externalId: externalId.trim() } : {}),
      ...(note.trim() ? { note: note.trim() } : {}),
    };
    const body = JSON.stringify(input);
    if (attempt.current?.body !== body) attempt.current = { key: crypto.randomUUID(), body };
    create.mutate({ input, idempotencyKey: attempt.current.key });
  }

  return (
    <>
      <h1>New transfer</h1>
      <p className="muted">
        The transfer is checked (policy, screening, quotas, balance), then waits for your signer: approve it there with{" "}
        <code>signer review &lt;transactionId&gt;</code>. The service never holds a signing key.
      </p>
      <form onSubmit={submit} noValidate>
        <NetworkField
          value={networkCode}
          onChange={(network) => {
            setNetworkCode(network);
            setVaultId("");
            setSourceWalletId("");
            setAssetId("");
          }}
          error={failure.field("networkCode")}
        />
        <PickOne
          label="Source vault"
          options={(vaults.data?.vaults ?? []).map((v) => vaultOption(v))}
          value={vaultId}
          onPick={(id) => {
            setVaultId(id);
            setSourceWalletId("");
          }}
          placeholder="Choose a vault…"
          required
        />
        <PickOne
          label="Source wallet"
          options={sources.map((w) => walletOption(w))}
          value={sourceWalletId}
          onPick={setSourceWalletId}
          placeholder="Choose a wallet…"
          required
          error={failure.field("sourceWalletId")}
          hint={
            vaultId && wallets.data && sources.length === 0
              ? "This vault has no active wallet that can send (watch-only wallets cannot)."
              : undefined
          }
        />
        <AddressBookPicker book={book} picked={inBook} onPick={setDestinationAddress} />
        <AddressField
          label="Destination address"
          value={destinationAddress}
          onChange={(e) => setDestinationAddress(e.target.value)}
          required
          error={failure.field("destinationAddress")}
          hint={
            inBook && (
              <span data-testid="destination-in-book">
                In the address book: <strong>{inBook.label}</strong>
              </span>
            )
          }
        />
        <PickOne
          label="Asset"
          options={(assets.data?.assets ?? []).map((a) => assetOption(a))}
          value={assetId}
          onPick={setAssetId}
          placeholder="Choose an asset…"
          required
          error={failure.field("assetId")}
        />
        <TextField
          label="Amount"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          required
          inputMode="decimal"
          autoComplete="off"
          error={amountError ?? failure.field("amount")}
          hint={
            asset && rawPreview?.ok ? (
              <>
                {amount.trim()} {asset.symbol} ={" "}
                <span className="mono" title={`${rawPreview.raw} base units`} data-testid="amount-base-units">
                  {rawPreview.raw}
                </span>{" "}
                base units
              </>
            ) : (
              `In ${asset?.symbol ?? "the asset's"} units, e.g. 1.5`
            )
          }
        />
        <TextField
          label="External ID"
          value={externalId}
          onChange={(e) => setExternalId(e.target.value)}
          error={failure.field("externalId")}
          hint="Optional: your reference, unique in your organization."
        />
        <TextAreaField
          label="Note"
          value={note}
          onChange={(e) => setNote(e.target.value)}
          error={failure.field("note")}
          hint="Optional, shown to the signer."
        />
        <FormError message={failure.form} />
        <button type="submit" disabled={create.isPending || !asset}>
          {create.isPending ? "Creating transfer…" : "Create transfer"}
        </button>
      </form>
    </>
  );
}
