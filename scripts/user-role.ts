/**
 * npm run user:role -- --email asha@example.com --role admin|user
 *
 * Sets a user's stored role: the way to make the first admin without ADMIN_EMAILS, or to demote
 * one. Takes the database lock like the server: with the embedded database, stop the server first.
 * Exit codes: 0 done, 1 no account with that email (or another failure), 2 bad arguments.
 */
import { setRoleByEmail } from "~/.server/admin/users.server";
import { runMain } from "./lib/run-main";
import { parseUserRoleArgs } from "./lib/user-role-args";
import { withDatabase } from "./lib/with-database";

async function main(): Promise<number> {
  const args = parseUserRoleArgs(process.argv.slice(2));
  if ("error" in args) {
    console.error(args.error);
    return 2;
  }
  const { email, role } = args;

  const result = await withDatabase(() => setRoleByEmail(email, role));
  if (!result) {
    console.error(`error: no account uses ${email}`);
    return 1;
  }
  console.log(result.message);
  return 0;
}

runMain(main);
