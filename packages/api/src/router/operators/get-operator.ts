import { z } from "zod";
import { operatorProcedure } from "../../trpc";
import { operatorRecord } from "./schemas";

/** Who is logged in to the console (the console's session check). */
export const getOperatorProcedure = operatorProcedure
  .input(z.object({}).optional())
  .output(operatorRecord)
  .query(({ ctx }) => ({ id: ctx.operator.operatorId, email: ctx.operator.email, name: ctx.operator.name }));
