import { describe, expect, it } from "vitest";
import { EVENTS, EVENT_TYPES } from "../events/catalog";
import { sampleEventData } from "./sample-event-data";

describe("sampleEventData", () => {
  it.each(EVENT_TYPES)("makes %s data that its catalog schema accepts, marked simulated", (type) => {
    const data = sampleEventData(type, new Date("2026-11-21T10:00:00.000Z"));
    expect(data.simulated).toBe(true);
    const { simulated: _simulated, ...rest } = data;
    expect(EVENTS[type].data.parse(rest)).toEqual(rest);
  });
});
