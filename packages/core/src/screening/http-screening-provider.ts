import { SCREENING_DECISIONS } from "@qc/domain";
import { z } from "zod";
import { ScreeningUnavailableError, type ScreeningProvider, type ScreeningRequest, type ScreeningResult } from "./screening-provider";

export const HTTP_PROVIDER = "http";

/** The only answer taken as a verdict; anything else means the provider is not working. */
const verdictSchema = z.object({
  decision: z.enum(SCREENING_DECISIONS),
  riskScore: z.number().finite().min(0).max(100).nullable().optional(),
  reasons: z.array(z.string().max(500)).max(50).optional(),
});

/**
 * An HTTP screening provider (SCREENING_PROVIDER_URL): `POST <url>` with the transfer as JSON,
 * expecting 200 `{decision: "CLEAR"|"BLOCKED", riskScore?, reasons?}`. A network error, a
 * timeout, another status or a body that is not such a verdict throws
 * ScreeningUnavailableError: the caller retries and in the end fails closed.
 */
export function createHttpScreeningProvider(options: { url: string; timeoutMs: number }): ScreeningProvider {
  return {
    name: HTTP_PROVIDER,
    async screen(request: ScreeningRequest): Promise<ScreeningResult> {
      let response: Response;
      try {
        response = await fetch(options.url, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify(request),
          signal: AbortSignal.timeout(options.timeoutMs),
          redirect: "error",
        });
      } catch (error) {
        throw new ScreeningUnavailableError(HTTP_PROVIDER, "the screening provider could not be reached", { cause: error });
      }
      const text = await response.text().catch(() => "");
      if (response.status !== 200)
        throw new ScreeningUnavailableError(HTTP_PROVIDER, `the screening provider answered HTTP ${response.status}`);
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new ScreeningUnavailableError(HTTP_PROVIDER, "the screening provider answered something that is not JSON");
      }
      const verdict = verdictSchema.safeParse(body);
      if (!verdict.success)
        throw new ScreeningUnavailableError(HTTP_PROVIDER, "the screening provider answered something that is not a verdict");
      return {
        provider: HTTP_PROVIDER,
        decision: verdict.data.decision,
        riskScore: verdict.data.riskScore ?? null,
        reasons: verdict.data.reasons ?? [],
      };
    },
  };
}
