import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * A secret generated once into DATA_DIR/<name> (mode 0600; DATA_DIR, when made here, 0700) and
 * read back on every start: the embedded default works with no setup and keeps its secrets across
 * restarts. Two processes that race agree on whichever file was written first.
 */
export function dataDirSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, name);
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    // Owner-only when it is made here, like the database folder (decision 0027).
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const secret = randomBytes(32).toString("base64url");
    try {
      fs.writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
      return secret;
    } catch {
      return fs.readFileSync(file, "utf8").trim();
    }
  }
}
