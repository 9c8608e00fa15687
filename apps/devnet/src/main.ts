// QUANTUM devnet CLI.
//   tsx apps/devnet/src/main.ts --chain-id 20804 --port 8546 --block-time 1000 --data-dir .data/devnet-sandbox
//   tsx apps/devnet/src/main.ts --network QUANTUM_SANDBOX --prefund 0xabc…=1000000000000000000000
import { parseArgs } from "node:util";
import { NETWORKS, isNetworkCode, parseAddress } from "@qc/chain";
import type { Address } from "viem";
import { startDevnet } from "./start-devnet";

const USAGE = `usage: devnet [--network QUANTUM_SANDBOX|QUANTUM_MAINNET | --chain-id N] [--port N] [--host H]
              [--block-time MS] [--data-dir DIR] [--prefund ADDRESS=QWEI ...]`;

function fail(message: string): never {
  console.error(`devnet: ${message}\n${USAGE}`);
  process.exit(2);
}

// `pnpm start -- --port 1` forwards the `--` separator; drop it.
const argv = process.argv.slice(2);
if (argv[0] === "--") argv.shift();

const { values } = parseArgs({
  args: argv,
  options: {
    network: { type: "string" },
    "chain-id": { type: "string" },
    port: { type: "string" },
    host: { type: "string", default: "127.0.0.1" },
    "block-time": { type: "string", default: "1000" },
    "data-dir": { type: "string" },
    prefund: { type: "string", multiple: true },
    help: { type: "boolean", short: "h" },
  },
  strict: true,
});

if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

let chainId: number;
let defaultPort = 8545;
if (values.network !== undefined) {
  if (!isNetworkCode(values.network)) fail(`unknown network ${values.network}`);
  chainId = NETWORKS[values.network].chainId;
  defaultPort = NETWORKS[values.network].devnetPort;
} else {
  chainId = Number(values["chain-id"] ?? NETWORKS.QUANTUM_SANDBOX.chainId);
  const known = Object.values(NETWORKS).find((n) => n.chainId === chainId);
  if (known) defaultPort = known.devnetPort;
}
if (!Number.isSafeInteger(chainId) || chainId <= 0) fail("--chain-id must be a positive integer");
const port = Number(values.port ?? defaultPort);
const blockTimeMs = Number(values["block-time"]);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail("--port must be 0..65535");
if (!Number.isFinite(blockTimeMs) || blockTimeMs < 0) fail("--block-time must be ≥ 0 (0 = mine on devnet_mine only)");

const prefund: Record<Address, bigint> = {};
for (const item of values.prefund ?? []) {
  const [addr, amount] = item.split("=");
  try {
    prefund[parseAddress(addr ?? "")] = BigInt(amount ?? "");
  } catch {
    fail(`--prefund expects ADDRESS=QWEI, got ${item}`);
  }
}

const devnet = await startDevnet({ chainId, port, host: values.host, blockTimeMs, dataDir: values["data-dir"], prefund });
console.log(`QUANTUM devnet chainId=${chainId} block-time=${blockTimeMs}ms${values["data-dir"] ? ` data-dir=${values["data-dir"]}` : ""}`);
console.log(devnet.url);

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`devnet: ${signal}, shutting down`);
  await devnet.close();
  process.exit(0);
};
process.on("SIGTERM", () => void stop("SIGTERM"));
process.on("SIGINT", () => void stop("SIGINT"));
