import type { TestProject } from "vitest/node";
import { startNeonWsProxy } from "./neon-ws-proxy";

declare module "vitest" {
  export interface ProvidedContext {
    qcNeonWsProxy: string;
  }
}

export default async function setup(project: TestProject) {
  const proxy = await startNeonWsProxy();
  project.provide("qcNeonWsProxy", proxy.endpoint);
  return () => proxy.close();
}
