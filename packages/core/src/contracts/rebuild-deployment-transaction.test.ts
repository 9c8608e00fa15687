import { serializeQuantumTransaction } from "@qc/chain";
import { buildQuantumDeployment, findContractTemplate } from "@qc/chain/contracts";
import type { TransactionRow } from "@qc/db/queries";
import { describe, expect, test } from "vitest";
import { rebuildUnsignedTransaction } from "../transfers/unsigned-transaction";
import { deploymentCounterparties } from "./decide-deployment-checks";
import { rebuildDeploymentTransaction, type ReleasedDeploymentRow } from "./rebuild-deployment-transaction";

const FIXED = findContractTemplate("erc20-fixed-supply")!;
const ARGS = {
  tokenName: "Quantum Dollar",
  tokenSymbol: "QD",
  tokenDecimals: "6",
  initialSupply: "1000",
  initialHolder: "0x5b38da6a701c568545dcfcb03fcb875f56beddc4",
};
const FEES = { nonce: 4, gasLimit: "900000", maxFeePerGas: "2000000000", maxPriorityFeePerGas: "1000000000" };

/** The fields of a released CONTRACT_DEPLOY row that the rebuild reads; the rest is irrelevant to it. */
function releasedRow(overrides: Partial<TransactionRow> = {}): ReleasedDeploymentRow {
  const data = buildQuantumDeployment({
    chainId: 20804,
    nonce: 0,
    maxFeePerGas: 0n,
    maxPriorityFeePerGas: 0n,
    gas: 0n,
    template: FIXED,
    constructorArgs: ARGS,
  }).transaction.data!;
  return {
    type: "CONTRACT_DEPLOY",
    status: "PENDING_SIGNATURE",
    chainId: 20804,
    destinationAddress: null,
    assetId: null,
    amount: "0",
    templateId: FIXED.id,
    constructorArgs: ARGS,
    data,
    ...FEES,
    ...overrides,
  } as ReleasedDeploymentRow;
}

describe("rebuildDeploymentTransaction", () => {
  test(
    "is the transaction the signer builds from the same template and arguments (buildQuantumDeployment), through " +
      "rebuildUnsignedTransaction too",
    () => {
      const signerSide = buildQuantumDeployment({
        chainId: 20804,
        nonce: 4,
        maxFeePerGas: 2_000_000_000n,
        maxPriorityFeePerGas: 1_000_000_000n,
        gas: 900_000n,
        template: FIXED,
        constructorArgs: ARGS,
      });
      expect(serializeQuantumTransaction(rebuildDeploymentTransaction(releasedRow()))).toBe(
        serializeQuantumTransaction(signerSide.transaction),
      );
      const rebuilt = rebuildUnsignedTransaction(releasedRow(), null);
      expect(rebuilt.unsignedTransaction).toBe(serializeQuantumTransaction(signerSide.transaction));
      expect(rebuilt.unsigned).toMatchObject({ to: null, value: 0n });
    },
  );

  test("refuses stored bytes that are not the template's with the stored arguments, naming the template and version", () => {
    const row = releasedRow();
    const tampered = `${row.data!.slice(0, -2)}${row.data!.endsWith("00") ? "01" : "00"}`;
    expect(() => rebuildDeploymentTransaction({ ...row, data: tampered })).toThrow(/not erc20-fixed-supply v1\.0\.0's pinned bytecode/);
    expect(() => rebuildDeploymentTransaction({ ...row, constructorArgs: { ...ARGS, initialSupply: "1001" } })).toThrow(
      /pinned bytecode with the stored constructor arguments/,
    );
  });

  test("refuses what a deployment can never be", () => {
    expect(() => rebuildDeploymentTransaction(releasedRow({ templateId: "erc721-collection" }))).toThrow(/not in the catalog/);
    expect(() => rebuildDeploymentTransaction(releasedRow({ constructorArgs: { ...ARGS, initialSupply: "-1" } }))).toThrow(
      /constructorArgs\.initialSupply: expected a decimal uint256 string/,
    );
    expect(() => rebuildDeploymentTransaction(releasedRow({ amount: "1" }))).toThrow(/moves no asset/);
    expect(() => rebuildDeploymentTransaction(releasedRow({ destinationAddress: "0x5b38da6a701c568545dcfcb03fcb875f56beddc4" }))).toThrow(
      /no destination/,
    );
  });
});

describe("deploymentCounterparties", () => {
  test("the non-zero address arguments, by name: what screening looks at", () => {
    expect(deploymentCounterparties({ templateId: FIXED.id, constructorArgs: ARGS })).toEqual([
      { name: "initialHolder", address: ARGS.initialHolder },
    ]);
    expect(
      deploymentCounterparties({
        templateId: FIXED.id,
        constructorArgs: { ...ARGS, initialHolder: "0x0000000000000000000000000000000000000000" },
      }),
    ).toEqual([]);
    expect(
      deploymentCounterparties({
        templateId: "timelock-vault",
        constructorArgs: { vaultBeneficiary: ARGS.initialHolder, vaultReleaseTime: "1" },
      }),
    ).toEqual([{ name: "vaultBeneficiary", address: ARGS.initialHolder }]);
  });
});
