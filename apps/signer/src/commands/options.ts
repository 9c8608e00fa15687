import { InvalidArgumentError } from "commander";

/** A commander parser for an integer option within bounds (a bad value is a usage error). */
export function integerIn(min: number, max: number) {
  return (value: string): number => {
    if (!/^[0-9]+$/.test(value)) throw new InvalidArgumentError(`must be an integer from ${min} to ${max}`);
    const number = Number(value);
    if (number < min || number > max) throw new InvalidArgumentError(`must be an integer from ${min} to ${max}`);
    return number;
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A commander parser for a resource id (the contract's ids are UUIDs). */
export function uuidArgument(value: string): string {
  if (!UUID.test(value)) throw new InvalidArgumentError("must be a UUID");
  return value.toLowerCase();
}
