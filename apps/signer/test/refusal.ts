import { ReviewRefusedError } from "../src/lib/errors";

/** The fields a review refusal names; fails the test when `run` does not refuse. */
export function refusedFields(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof ReviewRefusedError) return error.fields;
    throw error;
  }
  throw new Error("expected a refusal");
}
