import { describe, expect, it } from "vitest";
import { readWebEnv, rpcUrlsFromEnv } from "./env";

describe("web configuration", () => {
  it("lists only configured networks, splitting comma-separated fallbacks", () => {
    const env = readWebEnv({ QUANTUM_SANDBOX_RPC_URL: " http://a:8546 , http://b:8546,", NODE_ENV: "test" } as NodeJS.ProcessEnv);
    expect(rpcUrlsFromEnv(env)).toEqual({ QUANTUM_SANDBOX: ["http://a:8546", "http://b:8546"] });
    expect(rpcUrlsFromEnv(readWebEnv({ NODE_ENV: "test" } as NodeJS.ProcessEnv))).toEqual({});
  });

  it("stops at boot on a bad value, naming the variable", () => {
    expect(() => readWebEnv({ HTTPS_PORT: "not-a-port", NODE_ENV: "test" } as NodeJS.ProcessEnv)).toThrow(/HTTPS_PORT/);
  });
});
