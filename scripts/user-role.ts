/**
 * npm run user:role -- --email asha@example.com --role admin|user
 *
 * Sets a user's stored role: the way to make the first admin without ADMIN_EMAILS, or to demote
 * one. Takes the database lock like the server: with the embedded database, stop the server first.
 * Exit codes: 0 done, 1 no account with that email (or another failure), 2 bad arguments.
 */
import { parseArgs } from "node:util";
import { z } from "zod";
import { roleSchema, setRoleByEmail } from "~/.server/admin/users.server";
import { runMain } from "./lib/run-main";
import { withDatabase } from "./lib/with-database";

const USAGE = "usage: npm run user:role -- --email name@example.com --role admin|user";

const argsSchema = z.object({
  email: z
    .string({ error: "--email is required" })
    .trim()
    .toLowerCase()
    .pipe(z.email({ error: "--email must be an email address" })),
  role: z.enum(roleSchema.options, { error: "--role must be admin or user" }),
});

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: { email: { type: "string" }, role: { type: "string" } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    console.error(`error: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const parsed = argsSchema.safeParse(values);
  if (!parsed.success) {
    console.error(
      `error: ${parsed.error.issues.map((issue) => issue.message).join("; ")}\n${USAGE}`,
    );
    return 2;
  }
  const { email, role } = parsed.data;

  const result = await withDatabase(() => setRoleByEmail(email, role));
  if (!result) {
    console.error(`error: no account uses ${email}`);
    return 1;
  }
  console.log(result.message);
  return 0;
}

runMain(main);
