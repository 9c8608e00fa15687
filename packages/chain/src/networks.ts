/**
 * QUANTUM networks (CONTRACT §5). `rpcUrlEnv` names the variable holding comma-separated
 * RPC URLs; `devnetPort` is where the embedded default starts a local devnet when it is unset.
 */
export const NETWORKS = {
  QUANTUM_MAINNET: {
    networkCode: "QUANTUM_MAINNET",
    chainId: 20803,
    name: "Quantum Mainnet",
    rpcUrlEnv: "QUANTUM_MAINNET_RPC_URL",
    devnetPort: 8545,
  },
  QUANTUM_SANDBOX: {
    networkCode: "QUANTUM_SANDBOX",
    chainId: 20804,
    name: "Quantum Sandbox",
    rpcUrlEnv: "QUANTUM_SANDBOX_RPC_URL",
    devnetPort: 8546,
  },
} as const;

export type NetworkCode = keyof typeof NETWORKS;
export type Network = (typeof NETWORKS)[NetworkCode];

export const NETWORK_CODES = Object.keys(NETWORKS) as NetworkCode[];

export function isNetworkCode(value: unknown): value is NetworkCode {
  return typeof value === "string" && Object.hasOwn(NETWORKS, value);
}

export function networkByChainId(chainId: number): Network | undefined {
  return Object.values(NETWORKS).find((network) => network.chainId === chainId);
}

/** Native asset of every QUANTUM network: symbol `Q`, base unit Qwei, 18 decimals. */
export const NATIVE_CURRENCY = { name: "Q", symbol: "Q", decimals: 18 } as const;
