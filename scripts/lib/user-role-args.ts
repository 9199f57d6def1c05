/**
 * The arguments of `npm run user:role`, checked before anything opens the database: what to do,
 * or the message and exit code 2 for a wrong call (scripts/user-role.ts prints it).
 */
import { parseArgs } from "node:util";
import { z } from "zod";
import { roleSchema } from "~/.server/admin/users.server";

export const USAGE = "usage: npm run user:role -- --email name@example.com --role admin|user";

const argsSchema = z.object({
  email: z
    .string({ error: "--email is required" })
    .trim()
    .toLowerCase()
    .pipe(z.email({ error: "--email must be an email address" })),
  role: z.enum(roleSchema.options, { error: "--role must be admin or user" }),
});

export type UserRoleArgs = { email: string; role: z.infer<typeof roleSchema> } | { error: string };

export function parseUserRoleArgs(args: string[]): UserRoleArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: { email: { type: "string" }, role: { type: "string" } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return { error: `error: ${(error as Error).message}\n${USAGE}` };
  }
  const parsed = argsSchema.safeParse(values);
  if (!parsed.success) {
    return {
      error: `error: ${parsed.error.issues.map((issue) => issue.message).join("; ")}\n${USAGE}`,
    };
  }
  return parsed.data;
}
