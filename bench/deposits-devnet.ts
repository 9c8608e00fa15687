/**
 * The deposits benchmark's devnet, in a process of its own (its CPU is read by pid, and its
 * mining does not stall the benchmark's sampling): blocks only on `devnet_mine`, the gas limit and
 * the genesis balances from DEVNET_OPTIONS (a JSON file: {chainId, port, blockGasLimit, prefund}).
 */
import { readFileSync } from "node:fs";
import type { Address } from "viem";
import { startDevnet } from "../apps/devnet/src/index";

const options = JSON.parse(readFileSync(process.env.DEVNET_OPTIONS!, "utf8")) as {
  chainId: number;
  port: number;
  blockGasLimit: string;
  prefund: Record<Address, string>;
};
const devnet = await startDevnet({
  chainId: options.chainId,
  port: options.port,
  blockTimeMs: 0,
  blockGasLimit: BigInt(options.blockGasLimit),
  prefund: Object.fromEntries(Object.entries(options.prefund).map(([address, amount]) => [address, BigInt(amount)])),
});
console.log(`devnet listening on ${devnet.url}`);
process.once("SIGTERM", () => void devnet.close().then(() => process.exit(0)));
