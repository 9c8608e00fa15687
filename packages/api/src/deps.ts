import { Authenticator, createJobQueue, RateLimits, startBoss, type LockoutPolicy, type Logger, type RateLimitPolicy } from "@qc/core";
import type { DatabaseHandle } from "@qc/db";
import { AppError } from "@qc/core";
import { createQuantumPublicClient, type NetworkCode, type QuantumPublicClient } from "@qc/chain";
import type { AppConfig, AppDeps, ChainClients } from "./context";

export function createChainClients(rpcUrls: AppConfig["rpcUrls"]): ChainClients {
  const clients = new Map<NetworkCode, QuantumPublicClient>();
  return {
    client(networkCode) {
      let client = clients.get(networkCode);
      if (!client) {
        const urls = rpcUrls[networkCode];
        if (!urls?.length) throw new AppError("UNAVAILABLE", `no RPC endpoint is configured for ${networkCode}`, { details: { networkCode } });
        client = createQuantumPublicClient(networkCode, urls);
        clients.set(networkCode, client);
      }
      return client;
    },
  };
}

export interface CreateAppDepsOptions {
  database: DatabaseHandle;
  databaseUrl: string;
  log: Logger;
  config: AppConfig;
  now?: () => Date;
  lockout?: LockoutPolicy;
  rateLimits?: RateLimitPolicy;
}

/** Everything a web instance needs, built once at boot (and by the tests, the same way). */
export async function createAppDeps(options: CreateAppDepsOptions): Promise<AppDeps & { close(): Promise<void> }> {
  const now = options.now ?? (() => new Date());
  const authenticator = new Authenticator({
    database: options.database,
    databaseUrl: options.databaseUrl,
    pepper: options.config.apiKeyPepper,
    now,
    log: options.log,
    lockout: options.lockout,
  });
  await authenticator.listen();
  const boss = await startBoss({ url: options.databaseUrl, role: "web" });
  return {
    database: options.database,
    log: options.log,
    now,
    config: options.config,
    authenticator,
    rateLimits: new RateLimits(options.database.pool, options.rateLimits),
    jobs: createJobQueue(boss),
    chain: createChainClients(options.config.rpcUrls),
    async close() {
      await authenticator.close();
      await boss.stop({ graceful: false, close: true });
    },
  };
}
