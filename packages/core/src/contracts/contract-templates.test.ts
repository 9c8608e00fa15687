import { CONTRACT_TEMPLATES } from "@qc/chain/contracts";
import { describe, expect, test } from "vitest";
import { AppError } from "../errors";
import { encodeDeploymentData } from "./encode-deployment-data";
import { requireContractTemplate } from "./find-contract-template";
import { listContractTemplates } from "./list-contract-templates";

describe("contract template services", () => {
  test("listContractTemplates: every catalog template with its pinned hash and documented ABI inputs", () => {
    const { templates } = listContractTemplates();
    expect(templates.map((t) => t.id)).toEqual(["erc20-fixed-supply", "erc20-mint-burn", "timelock-vault"]);
    for (const record of templates) {
      const template = CONTRACT_TEMPLATES.find((t) => t.id === record.id)!;
      expect(record).toEqual({
        id: template.id,
        name: template.name,
        version: template.version,
        description: template.description,
        kind: template.kind,
        bytecodeHash: template.bytecodeHash,
        constructorInputs: template.constructorInputs.map(({ name, type, description }) => ({ name, type, description })),
      });
      expect(record.bytecodeHash).toMatch(/^0x[0-9a-f]{64}$/);
    }
    expect(templates.find((t) => t.id === "timelock-vault")?.constructorInputs.map((i) => `${i.type} ${i.name}`)).toEqual([
      "address vaultBeneficiary",
      "uint64 vaultReleaseTime",
    ]);
  });

  test("requireContractTemplate: an unknown id is 404 NOT_FOUND", () => {
    expect(requireContractTemplate("erc20-fixed-supply").id).toBe("erc20-fixed-supply");
    const error = (() => {
      try {
        requireContractTemplate("erc721");
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ error: "NOT_FOUND", status: 404, details: { templateId: "erc721" } });
  });

  test("encodeDeploymentData: bad arguments are 400 VALIDATION_FAILED naming each one", () => {
    const template = requireContractTemplate("erc20-fixed-supply");
    const error = (() => {
      try {
        encodeDeploymentData(template, { tokenName: "X", tokenSymbol: "X", tokenDecimals: "6", initialSupply: 5 });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toMatchObject({
      error: "VALIDATION_FAILED",
      status: 400,
      message: "constructorArgs.initialSupply: expected a decimal uint256 string",
      details: {
        fields: [{ path: "constructorArgs.initialSupply", message: "expected a decimal uint256 string" }],
        templateId: "erc20-fixed-supply",
      },
    });
    const ok = encodeDeploymentData(template, { tokenName: "X", tokenSymbol: "X", tokenDecimals: "6", initialSupply: "5" });
    expect(ok.data.startsWith(template.artifact.bytecode)).toBe(true);
  });
});
