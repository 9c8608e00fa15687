"use client";

import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { NetworkCode } from "../../../src/dashboard/router-types";
import { useTRPC } from "../../../src/dashboard/trpc";
import { AddressField, CheckboxGroup, FormError, NetworkField, TextField } from "../../_components/field";
import { formFailure } from "../../_components/form-failure";
import { Time } from "../../_components/time";
import { useAssets } from "../../_components/use-assets";
import { useInvalidateAddressBook } from "./use-address-book";

/**
 * Adding an entry (`POST /v1/address-book`, OWNER or ADMIN): network, address, label and,
 * optionally, the assets it is limited to. The API's refusals land beside their field: an address
 * already listed for the network (409 ADDRESS_ALREADY_LISTED, 1501) or not an address beside the
 * address, an unknown asset beside the assets.
 */
export function AddEntry() {
  const trpc = useTRPC();
  const invalidate = useInvalidateAddressBook();
  const { assets } = useAssets();
  const [networkCode, setNetworkCode] = useState<NetworkCode>("QUANTUM_SANDBOX");
  const [address, setAddress] = useState("");
  const [label, setLabel] = useState("");
  const [assetIds, setAssetIds] = useState<string[]>([]);
  const create = useMutation(
    trpc.addressBook.create.mutationOptions({
      onSuccess: () => {
        setAddress("");
        setLabel("");
        setAssetIds([]);
        invalidate();
      },
    }),
  );
  const failure = formFailure(create.error, ["networkCode", "address", "label", "assetIds"], {
    ADDRESS_ALREADY_LISTED: "address",
    INVALID_ADDRESS: "address",
    UNKNOWN_ASSET: "assetIds",
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate({ networkCode, address: address.trim(), label: label.trim(), ...(assetIds.length ? { assetIds } : {}) });
  }

  return (
    <form onSubmit={submit} noValidate className="panel" aria-labelledby="add-entry-heading" data-testid="add-address-book-entry">
      <h2 id="add-entry-heading">Add an entry</h2>
      <NetworkField
        value={networkCode}
        onChange={(network) => {
          setNetworkCode(network);
          setAssetIds([]);
        }}
        error={failure.field("networkCode")}
      />
      <AddressField
        label="Address"
        value={address}
        onChange={(e) => setAddress(e.target.value)}
        required
        error={failure.field("address")}
      />
      <TextField
        label="Label"
        value={label}
        onChange={(e) => setLabel(e.target.value)}
        required
        maxLength={100}
        error={failure.field("label")}
        hint="How transfers to it are named, e.g. Exchange deposit."
      />
      <CheckboxGroup
        legend="Limited to assets"
        options={assets.filter((a) => a.networkCode === networkCode).map((a) => ({ value: a.id, label: `${a.symbol} · ${a.name}` }))}
        value={assetIds}
        onChange={setAssetIds}
        error={failure.field("assetIds")}
        hint="None ticked: any asset of the network."
      />
      <FormError message={failure.form} />
      <button type="submit" disabled={create.isPending || !address.trim() || !label.trim()}>
        Add to address book
      </button>
      {create.isSuccess && (
        <p role="status" className="notice success" data-testid="address-book-added">
          {create.data.activatesAt ? (
            <>
              Added {create.data.label}: <code>PENDING</code> until <Time at={create.data.activatesAt} />, then <code>ACTIVE</code>.
            </>
          ) : (
            <>
              Added {create.data.label}: <code>AWAITING_APPROVAL</code> until its approver group&apos;s quorum; the activation delay starts
              then.
            </>
          )}
        </p>
      )}
    </form>
  );
}
