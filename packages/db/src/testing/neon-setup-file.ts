import { inject } from "vitest";

// Every database this project's tests open goes through @neondatabase/serverless.
process.env.DB_DRIVER = "neon";
process.env.NEON_WS_PROXY = inject("qcNeonWsProxy");
