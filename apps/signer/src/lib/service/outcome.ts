import { ServiceError } from "./service-client";

/**
 * Whether a failed request certainly changed nothing on the service: it answered and refused
 * (4xx). A transport failure or a 5xx leaves it open whether the change was applied, so keys
 * sent in such a request are kept until a later run learns the answer.
 */
export function isDefiniteRefusal(error: unknown): boolean {
  return error instanceof ServiceError && error.status >= 400 && error.status < 500;
}
