import { describe, expect, it } from "vitest";
import {
  createSecretBox,
  generateSecretBoxKey,
  parseSecretBoxKey,
  SecretBoxError,
  type SecretBoxErrorReason,
  secretBoxKeyId,
} from "./secret-box";
import { generateWebhookSecret } from "./sign";

function reasonOf(run: () => unknown): SecretBoxErrorReason {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SecretBoxError);
    return (error as SecretBoxError).reason;
  }
  throw new Error("expected a SecretBoxError");
}

describe("secret box", () => {
  const key = parseSecretBoxKey(generateSecretBoxKey());
  const box = createSecretBox({ current: key });
  const secret = generateWebhookSecret();
  const row = "webhook_endpoint:01936f8e-7d2a-7c41-9a8e-2f5b6c7d8e9f:current";

  it("round-trips a secret and never stores it in the clear", () => {
    const sealed = box.seal(secret, row);
    expect(sealed).toMatch(/^v1\.[0-9a-f]{12}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain(secret.slice(6, 20));
    expect(box.open(sealed, row)).toBe(secret);
    expect(box.seal(secret, row)).not.toBe(sealed); // fresh nonce each time
  });

  it("refuses a tampered envelope, another row's envelope, and a malformed one", () => {
    const sealed = box.seal(secret, row);
    const parts = sealed.split(".");
    const body = Buffer.from(parts[3]!, "base64url");
    body[0] = body[0]! ^ 1;
    const tampered = [...parts.slice(0, 3), body.toString("base64url")].join(".");
    expect(reasonOf(() => box.open(tampered, row))).toBe("AUTHENTICATION_FAILED");
    expect(reasonOf(() => box.open(sealed, "webhook_endpoint:another:current"))).toBe("AUTHENTICATION_FAILED");
    expect(reasonOf(() => box.open("v2.x.y.z", row))).toBe("MALFORMED");
    expect(reasonOf(() => box.open(secret, row))).toBe("MALFORMED");
  });

  it("cannot open without the key: another key fails, and rotation keeps old rows readable", () => {
    const sealed = box.seal(secret, row);
    const otherKey = parseSecretBoxKey(generateSecretBoxKey());
    expect(reasonOf(() => createSecretBox({ current: otherKey }).open(sealed, row))).toBe("UNKNOWN_KEY");
    const rotated = createSecretBox({ current: otherKey, previous: [key] });
    expect(rotated.open(sealed, row)).toBe(secret);
    expect(rotated.needsReseal(sealed)).toBe(true);
    const resealed = rotated.seal(rotated.open(sealed, row), row);
    expect(rotated.needsReseal(resealed)).toBe(false);
    expect(resealed.split(".")[1]).toBe(secretBoxKeyId(otherKey));
    expect(reasonOf(() => box.open(resealed, row))).toBe("UNKNOWN_KEY");
  });

  it("reads keys as hex or base64 and refuses anything not 32 bytes", () => {
    const hex = key.toString("hex");
    expect(parseSecretBoxKey(hex)).toEqual(key);
    expect(parseSecretBoxKey(key.toString("base64url"))).toEqual(key);
    expect(reasonOf(() => parseSecretBoxKey("abcd"))).toBe("INVALID_KEY");
    expect(reasonOf(() => parseSecretBoxKey(Buffer.alloc(16).toString("base64")))).toBe("INVALID_KEY");
    expect(reasonOf(() => createSecretBox({ current: new Uint8Array(16) }))).toBe("INVALID_KEY");
  });
});
