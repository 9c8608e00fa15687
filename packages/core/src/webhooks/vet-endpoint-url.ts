import { vetWebhookUrl, WebhookUrlRefusedError, type HostResolver } from "@qc/webhooks";
import type { WebhookConfig } from "../deps/service-config";
import { AppError } from "../errors";

/**
 * A webhook URL as the API accepts it (CONTRACT §7): https, public addresses only (unless
 * WEBHOOK_ALLOW_PRIVATE_URLS), resolved now so that a refused address is refused at once with
 * the reason. 400 VALIDATION_FAILED naming the field and the reason otherwise. Returns the URL
 * normalised (lower-case host, default port dropped), as it is stored.
 */
export async function vetEndpointUrl(
  config: Pick<WebhookConfig, "allowPrivateUrls">,
  url: string,
  resolveHost?: HostResolver,
): Promise<string> {
  try {
    const vetted = await vetWebhookUrl(url, { allowPrivate: config.allowPrivateUrls, ...(resolveHost ? { resolveHost } : {}) });
    return vetted.url.href;
  } catch (error) {
    if (!(error instanceof WebhookUrlRefusedError)) throw error;
    throw new AppError("VALIDATION_FAILED", error.message, {
      details: {
        fields: [{ path: "url", message: error.message }],
        reason: error.reason,
        ...(error.refused ? { refused: error.refused } : {}),
      },
    });
  }
}
export { MAX_WEBHOOK_URL_LENGTH } from "@qc/webhooks";
