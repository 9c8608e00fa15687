import { AppError } from "@qc/core";
import { findKeyMaterial } from "./key-material/index";
import type { AppDeps, RequestInfo } from "@qc/api";

/**
 * CONTRACT §9: a body holding key material is refused before any handler runs. The audit row
 * names the route, the JSON path and the kind of material, never the value.
 */
export async function rejectKeyMaterial(body: unknown, request: RequestInfo, deps: AppDeps): Promise<void> {
  if (body === undefined) return;
  const finding = findKeyMaterial(body);
  if (!finding) return;
  // Through the audit buffer: an anonymous flood of such bodies must not become a write per
  // request; the refusal never waits for, or depends on, the audit write.
  deps.authenticator.recordRefusal({
    action: "request.key_material_rejected",
    actorType: "anonymous",
    requestId: request.requestId,
    ip: request.ip,
    details: { method: request.method, path: request.path, jsonPath: finding.path, kind: finding.kind },
  });
  throw new AppError("KEY_MATERIAL_REJECTED", "request body contains private key material; the service never takes custody of keys", {
    details: { path: finding.path, kind: finding.kind },
  });
}
