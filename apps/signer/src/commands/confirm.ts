import { SignerError } from "../lib/errors";
import { readLine } from "../terminal";

/**
 * The typed confirmation of `review` and `approve` (CONTRACT §12): the person types the last 4
 * characters of `value` (case does not matter), from the terminal or the first line of standard
 * input; anything else, or nothing, refuses with nothing signed or sent. No option skips it.
 */
export async function confirmLastFour(value: string, what: string, action: string): Promise<void> {
  const typed = await readLine(`Type the last 4 characters of the ${what} to ${action}: `);
  if (typed === null || typed.trim().toLowerCase() !== value.slice(-4).toLowerCase()) {
    throw new SignerError(`the confirmation does not match the ${what}'s last 4 characters; nothing was signed or sent`);
  }
}
