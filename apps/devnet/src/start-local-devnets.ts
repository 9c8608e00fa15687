import { join } from "node:path";
import { NETWORKS, NETWORK_CODES, type NetworkCode } from "@qc/chain";
import { startDevnet, type Devnet } from "./start-devnet";

export type StartLocalDevnetsOptions = {
  /** The environment to read `QUANTUM_*_RPC_URL` from (pass the validated env, not process.env). */
  env: Record<string, string | undefined>;
  /** Root for per-network data dirs (`<dataDir>/devnet-sandbox`, `<dataDir>/devnet-mainnet`). Default `.data`. */
  dataDir?: string;
  host?: string;
  blockTimeMs?: number;
  /** Override the default ports (8545 mainnet, 8546 sandbox); 0 picks free ports. */
  ports?: Partial<Record<NetworkCode, number>>;
  log?: (message: string) => void;
};

export type LocalDevnets = {
  /** RPC URL per network variable, for every network: the configured one or the local devnet. */
  rpcUrls: Record<(typeof NETWORKS)[NetworkCode]["rpcUrlEnv"], string>;
  /** Devnets started by this call (reused or configured endpoints are not included). */
  devnets: Partial<Record<NetworkCode, Devnet>>;
  close(): Promise<void>;
};

async function probeChainId(url: string): Promise<number | undefined> {
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      signal: AbortSignal.timeout(2_000),
    });
    const body = (await res.json()) as { result?: string };
    return body.result ? Number(body.result) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The embedded default of CONTRACT §5: for each QUANTUM network whose RPC URL variable is
 * unset, start a persistent local devnet (mainnet on 8545, sandbox on 8546). If the port is
 * taken by a devnet of the right chain (a previous run), that one is reused.
 */
export async function startLocalDevnets(options: StartLocalDevnetsOptions): Promise<LocalDevnets> {
  const { env, dataDir = ".data", host = "127.0.0.1", blockTimeMs = 1000, log = () => undefined } = options;
  const devnets: Partial<Record<NetworkCode, Devnet>> = {};
  const rpcUrls = {} as LocalDevnets["rpcUrls"];
  try {
    for (const code of NETWORK_CODES) {
      const network = NETWORKS[code];
      const configured = env[network.rpcUrlEnv]?.trim();
      if (configured) {
        rpcUrls[network.rpcUrlEnv] = configured;
        continue;
      }
      const port = options.ports?.[code] ?? network.devnetPort;
      try {
        const devnet = await startDevnet({
          chainId: network.chainId,
          host,
          port,
          blockTimeMs,
          dataDir: join(dataDir, `devnet-${code.toLowerCase().replace("quantum_", "")}`),
        });
        devnets[code] = devnet;
        rpcUrls[network.rpcUrlEnv] = devnet.url;
        log(`${code} devnet (chain ${network.chainId}) listening on ${devnet.url}`);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
        const url = `http://${host}:${port}`;
        const chainId = await probeChainId(url);
        if (chainId !== network.chainId) {
          throw new Error(`port ${port} is in use by something that is not a ${code} devnet; set ${network.rpcUrlEnv}`, { cause: error });
        }
        rpcUrls[network.rpcUrlEnv] = url;
        log(`${code}: reusing the devnet already running on ${url}`);
      }
    }
  } catch (error) {
    await Promise.all(Object.values(devnets).map((d) => d.close()));
    throw error;
  }
  return {
    rpcUrls,
    devnets,
    async close() {
      await Promise.all(Object.values(devnets).map((d) => d.close()));
    },
  };
}
