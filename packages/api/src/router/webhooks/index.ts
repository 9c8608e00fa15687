import { createRouter } from "../../trpc";
import { createWebhookProcedure } from "./create-webhook";
import { deleteWebhookProcedure } from "./delete-webhook";
import { getWebhookProcedure } from "./get-webhook";
import { listWebhookDeliveriesProcedure } from "./list-webhook-deliveries";
import { listWebhooksProcedure } from "./list-webhooks";
import { resendWebhookProcedure } from "./resend-webhook";
import { retryWebhookDeliveryProcedure } from "./retry-webhook-delivery";
import { rotateWebhookSecretProcedure } from "./rotate-webhook-secret";
import { simulateWebhookProcedure } from "./simulate-webhook";
import { testWebhookProcedure } from "./test-webhook";
import { updateWebhookProcedure } from "./update-webhook";

export const webhooksRouter = createRouter({
  create: createWebhookProcedure,
  list: listWebhooksProcedure,
  get: getWebhookProcedure,
  update: updateWebhookProcedure,
  delete: deleteWebhookProcedure,
  rotateSecret: rotateWebhookSecretProcedure,
  test: testWebhookProcedure,
  resend: resendWebhookProcedure,
  simulate: simulateWebhookProcedure,
  deliveries: createRouter({ list: listWebhookDeliveriesProcedure, retry: retryWebhookDeliveryProcedure }),
});
