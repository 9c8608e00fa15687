import { erc20TransferCalldata, simulateCalls, SimulationRejectedError, SimulationUnsupportedError } from "@qc/chain";
import { beforeAll, describe, expect, test } from "vitest";
import { createFundedAccount, deployTestToken, startTestDevnet, useDevnet, type TestAccount } from "../src/testing";
import { GWEI, Q } from "./helpers";

const devnet = useDevnet();
let owner: TestAccount;
beforeAll(async () => {
  owner = await createFundedAccount(devnet(), 10n * Q);
});

describe("simulateCalls (@qc/chain) against the devnet's eth_simulateV1", () => {
  test("a native and an ERC-20 transfer: status, gas, transfers from the logs, the block's base fee", async () => {
    const d = devnet();
    const token = await deployTestToken(d, owner, { supply: 5_000n });
    const to = "0x00000000000000000000000000000000000d0e01";
    const fees = { maxFeePerGas: 10n * GWEI, maxPriorityFeePerGas: GWEI };
    const result = await simulateCalls(d.publicClient(), {
      calls: [
        { from: owner.address, to, value: 7n, gas: 21_000n, ...fees },
        { from: owner.address, to: token, data: erc20TransferCalldata({ to, amount: 5n }), ...fees },
        { from: owner.address, to: token, data: erc20TransferCalldata({ to, amount: 10n ** 9n }), ...fees },
      ],
      traceTransfers: true,
      validation: true,
    });
    expect(result.blockNumber).toBe(BigInt(await d.rpc<string>("eth_blockNumber")) + 1n);
    expect(result.baseFeePerGas).toBeGreaterThan(0n);
    const [native, erc20, failing] = result.calls;
    expect(native).toMatchObject({ status: "success", gasUsed: 21_000n, revertReason: null, error: null });
    expect(native!.transfers).toEqual([{ asset: "native", from: owner.address, to, value: 7n }]);
    expect(erc20!.status).toBe("success");
    expect(erc20!.transfers).toEqual([{ asset: token, from: owner.address, to, value: 5n }]);
    // A custom error: reverted, no readable reason, the data kept.
    expect(failing).toMatchObject({ status: "reverted", revertReason: null, transfers: [], error: { code: 3 } });
    expect(failing!.error!.data).toMatch(/^0xcf479181/);
  });

  test("a request the node refuses is a SimulationRejectedError with the spec's code and reason", async () => {
    const error = await simulateCalls(devnet().publicClient(), {
      calls: [{ from: "0x00000000000000000000000000000000000d0e02", to: owner.address, value: 1n, maxFeePerGas: 10n * GWEI }],
      validation: true,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SimulationRejectedError);
    expect(error).toMatchObject({ code: -38014, reason: "INSUFFICIENT_FUNDS" });
  });

  test("a node without eth_simulateV1 (-32601) is a SimulationUnsupportedError, not a failed call", async () => {
    const old = await startTestDevnet({ disabledMethods: ["eth_simulateV1"] });
    try {
      const error = await simulateCalls(old.publicClient(), { calls: [{ to: owner.address }] }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SimulationUnsupportedError);
      expect(error).toMatchObject({ code: -32601 });
      // The rest of the node still answers.
      expect(await old.rpc("eth_chainId")).toBe("0x5144");
    } finally {
      await old.close();
    }
  });
});
