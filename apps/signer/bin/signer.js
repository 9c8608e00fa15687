#!/usr/bin/env node
// The `signer` bin: runs the TypeScript sources directly (no build step), like `./qc signer`.
import { register } from "tsx/esm/api";

register();
await import("../src/main.ts");
