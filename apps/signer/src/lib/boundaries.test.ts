import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const LIB = fileURLToPath(new URL(".", import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

describe("the signer library", () => {
  it("reaches the service only over HTTP: it imports none of the server's packages", () => {
    const files = sources(LIB);
    expect(files.length).toBeGreaterThan(10);
    const offending = files.flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/from\s+["'](@qc\/(?:core|db|api|web|daemon|webhooks)[^"']*)["']/g)].map(
        (m) => `${file}: ${m[1]}`,
      ),
    );
    expect(offending).toEqual([]);
  });
});
