import { describe, expect, it } from "vitest";
import { parseEnv, serviceConfigFromEnv, serviceEnvSchema } from "./env";

// Development mode: these tests read the screening variables, not production's secrets.
const readEnv = (vars: Record<string, string>) =>
  parseEnv(serviceEnvSchema, { NODE_ENV: "test", QC_DEV_MODE: "true", ...vars } as NodeJS.ProcessEnv);

describe("service configuration: SCREENING_DENYLIST", () => {
  it("canonicalises every entry: any case, with or without 0x, a valid EIP-55 checksum", () => {
    const env = readEnv({ SCREENING_DENYLIST: " 0x5B38Da6a701c568545dCfcB03FcB875f56beddC4, 4B20993BC481177EC7E8F571CECAE8A9E22C02DB ,," });
    expect(env.SCREENING_DENYLIST).toEqual(["0x5b38da6a701c568545dcfcb03fcb875f56beddc4", "0x4b20993bc481177ec7e8f571cecae8a9e22c02db"]);
    expect(serviceConfigFromEnv(env).screening.denylist).toEqual(env.SCREENING_DENYLIST);
    expect(readEnv({}).SCREENING_DENYLIST).toEqual([]);
  });

  it("stops at boot on an entry that is not an address or fails its checksum, naming the variable and the entry", () => {
    // One hex digit short: before, it was kept and silently never matched a destination.
    expect(() =>
      readEnv({ SCREENING_DENYLIST: "0x5b38da6a701c568545dcfcb03fcb875f56beddc4,0x4b20993bc481177ec7e8f571cecae8a9e22c02d" }),
    ).toThrow(
      /^invalid configuration: SCREENING_DENYLIST: entry 2 "0x4b20993bc481177ec7e8f571cecae8a9e22c02d" is not an address \(not 40 hex digits/,
    );
    expect(() => readEnv({ SCREENING_DENYLIST: "0x5b38da6a701c568545dcfcb03fcb875f56beddcz" })).toThrow(/SCREENING_DENYLIST: entry 1/);
    // Mixed case with one letter's case flipped: a checksum error, not a different address.
    expect(() => readEnv({ SCREENING_DENYLIST: "0x5b38Da6a701c568545dCfcB03FcB875f56beddC4" })).toThrow(
      /SCREENING_DENYLIST: entry 1 .*EIP-55 checksum/,
    );
  });
});

describe("service configuration: RECHECK_AFTER_SECONDS", () => {
  it("defaults to 300 s, accepts 0 (every time), refuses a negative or fractional value", () => {
    expect(serviceConfigFromEnv(readEnv({})).transfers.recheckAfterSeconds).toBe(300);
    expect(serviceConfigFromEnv(readEnv({ RECHECK_AFTER_SECONDS: "0" })).transfers.recheckAfterSeconds).toBe(0);
    expect(() => readEnv({ RECHECK_AFTER_SECONDS: "-1" })).toThrow(/RECHECK_AFTER_SECONDS/);
    expect(() => readEnv({ RECHECK_AFTER_SECONDS: "1.5" })).toThrow(/RECHECK_AFTER_SECONDS/);
  });
});

describe("service configuration: APPROVAL_TIMEOUT_SECONDS", () => {
  it("defaults to 86400 s (CONTRACT §15), is read by the web process and the daemon alike, refuses less than a minute", () => {
    expect(serviceConfigFromEnv(readEnv({})).transfers.approvalTimeoutSeconds).toBe(86_400);
    expect(serviceConfigFromEnv(readEnv({ APPROVAL_TIMEOUT_SECONDS: "3600" })).transfers.approvalTimeoutSeconds).toBe(3600);
    expect(() => readEnv({ APPROVAL_TIMEOUT_SECONDS: "59" })).toThrow(/APPROVAL_TIMEOUT_SECONDS/);
    expect(() => readEnv({ APPROVAL_TIMEOUT_SECONDS: "1.5" })).toThrow(/APPROVAL_TIMEOUT_SECONDS/);
  });
});

describe("service configuration: ADDRESS_BOOK_ACTIVATION_SECONDS", () => {
  it("defaults to 86400 s (CONTRACT §16), accepts 0 (at once), refuses a negative, fractional or over-90-day value", () => {
    expect(serviceConfigFromEnv(readEnv({})).transfers.addressBookActivationSeconds).toBe(86_400);
    expect(serviceConfigFromEnv(readEnv({ ADDRESS_BOOK_ACTIVATION_SECONDS: "0" })).transfers.addressBookActivationSeconds).toBe(0);
    expect(serviceConfigFromEnv(readEnv({ ADDRESS_BOOK_ACTIVATION_SECONDS: "172800" })).transfers.addressBookActivationSeconds).toBe(
      172_800,
    );
    expect(() => readEnv({ ADDRESS_BOOK_ACTIVATION_SECONDS: "-1" })).toThrow(/ADDRESS_BOOK_ACTIVATION_SECONDS/);
    expect(() => readEnv({ ADDRESS_BOOK_ACTIVATION_SECONDS: "1.5" })).toThrow(/ADDRESS_BOOK_ACTIVATION_SECONDS/);
    expect(() => readEnv({ ADDRESS_BOOK_ACTIVATION_SECONDS: String(90 * 86_400 + 1) })).toThrow(/ADDRESS_BOOK_ACTIVATION_SECONDS/);
  });
});
