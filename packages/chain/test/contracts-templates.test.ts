import { readFileSync } from "node:fs";
import { keccak256, toFunctionSelector, type AbiParameter } from "viem";
import { describe, expect, test } from "vitest";
import {
  compileContractReport,
  CONTRACT_TEMPLATES,
  findContractTemplate,
  loadArtifact,
  SOLC_VERSION,
  TEMPLATE_SOURCES,
} from "../src/contracts/index";

const review = readFileSync(new URL("../contracts/REVIEW.md", import.meta.url), "utf8");

describe("contract template catalog", () => {
  test("every template source has exactly one catalog entry, ids unique, versions semver", () => {
    expect(CONTRACT_TEMPLATES.map((t) => t.id)).toEqual(TEMPLATE_SOURCES.map((s) => s.id));
    expect(new Set(CONTRACT_TEMPLATES.map((t) => t.id)).size).toBe(CONTRACT_TEMPLATES.length);
    for (const template of CONTRACT_TEMPLATES) {
      expect(template.version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(findContractTemplate(template.id)).toBe(template);
    }
    expect(findContractTemplate("no-such-template")).toBeUndefined();
    expect(CONTRACT_TEMPLATES.map((t) => t.kind)).toEqual(["TOKEN", "TOKEN", "OTHER"]);
  });

  // The one check that ties the catalog to the source: rebuild with the pinned solc and compare
  // the creation bytecode's keccak256 with the hash written in templates.ts.
  test.each(TEMPLATE_SOURCES.map((s) => [s.id, s] as const))("%s: the pinned solc rebuilds the pinned bytecode hash", (id, source) => {
    const template = findContractTemplate(id)!;
    const { artifact: fresh, warnings } = compileContractReport(source.sourceFile, source.contractName);
    expect(fresh.solcVersion.startsWith(`${SOLC_VERSION}+`)).toBe(true);
    expect(warnings).toEqual([]);
    expect(keccak256(fresh.bytecode)).toBe(template.bytecodeHash);
    expect(fresh.bytecodeKeccak256).toBe(template.bytecodeHash);

    // The committed artifact is exactly what the compiler produced.
    const committed = loadArtifact(source.artifactFile);
    expect(committed).toEqual(fresh);
    expect(template.artifact).toEqual(fresh);
    const sourceText = readFileSync(new URL(`../contracts/${source.sourceFile}`, import.meta.url));
    expect(committed.sourceKeccak256).toBe(keccak256(sourceText));
  });

  test.each(CONTRACT_TEMPLATES.map((t) => [t.id, t] as const))("%s: constructor inputs are the ABI's, each documented", (_id, template) => {
    const constructor = template.artifact.abi.find((item) => item.type === "constructor") as { inputs: readonly AbiParameter[] };
    expect(template.constructorInputs.map((i) => ({ name: i.name, type: i.type }))).toEqual(
      constructor.inputs.map((p) => ({ name: p.name, type: p.type })),
    );
    for (const input of template.constructorInputs) expect(input.description.length).toBeGreaterThan(10);
  });

  test.each(CONTRACT_TEMPLATES.map((t) => [t.id, t] as const))(
    "%s: REVIEW.md has an entry naming the reviewed version, bytecode and source hashes",
    (id, template) => {
      const start = review.indexOf(`## ${id} `);
      expect(start, `no "## ${id} " heading in REVIEW.md`).toBeGreaterThanOrEqual(0);
      const next = review.indexOf("\n## ", start + 1);
      const entry = review.slice(start, next < 0 ? undefined : next);
      expect(entry).toContain(`v${template.version}`);
      expect(entry).toContain(template.bytecodeHash);
      expect(entry).toContain(template.artifact.sourceKeccak256);
      for (const heading of ["Reviewed", "Invariants", "Known limits"]) expect(entry).toContain(`### ${heading}`);
    },
  );

  test("token templates expose the ERC-20 surface the asset service reads", () => {
    for (const template of CONTRACT_TEMPLATES.filter((t) => t.kind === "TOKEN")) {
      const selectors = new Set(
        template.artifact.abi
          .filter((item) => item.type === "function")
          .map((item) => toFunctionSelector(item as Parameters<typeof toFunctionSelector>[0])),
      );
      for (const signature of [
        "name()",
        "symbol()",
        "decimals()",
        "totalSupply()",
        "balanceOf(address)",
        "allowance(address,address)",
        "transfer(address,uint256)",
        "approve(address,uint256)",
        "transferFrom(address,address,uint256)",
      ]) {
        expect(selectors.has(toFunctionSelector(`function ${signature}`)), `${template.id} lacks ${signature}`).toBe(true);
      }
    }
  });
});
