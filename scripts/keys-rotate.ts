/**
 * npm run keys:rotate
 *
 * Makes a new licence signing key: it signs every licence from now on; older keys stay in
 * /.well-known/jwks.json until the licences they signed have expired (7 days), and are deleted by
 * a later rotation. With the embedded database, stop the site first (it holds the database lock);
 * with PostgreSQL, run it anywhere with the site's environment.
 */
import { rotateLicenceKey } from "~/.server/desktop/license.server";
import { runMain } from "./lib/run-main";
import { withDatabase } from "./lib/with-database";

async function main(): Promise<number> {
  const result = await withDatabase(rotateLicenceKey);
  console.log(`new licence signing key ${result.kid}`);
  if (result.kept.length > 0)
    console.log(`still verifying (until their licences expire): ${result.kept.join(", ")}`);
  if (result.removed.length > 0) console.log(`removed expired keys: ${result.removed.join(", ")}`);
  return 0;
}

runMain(main);
