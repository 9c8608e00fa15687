import { assetKind, transactionType } from "@qc/db/schema";
import { describe, expect, it } from "vitest";
import { ASSET_KINDS, TRANSACTION_TYPES } from "./signer-api";

// The signer keeps its own copy of the service's closed lists (it depends on @qc/chain only);
// the db enums are derived from @qc/domain, so equal to them means equal to the vocabulary.
describe("the signer's copy of the service vocabulary", () => {
  it("lists the transaction types and asset kinds the service stores, in its order", () => {
    expect(TRANSACTION_TYPES).toEqual(transactionType.enumValues);
    expect(ASSET_KINDS).toEqual(assetKind.enumValues);
  });
});
