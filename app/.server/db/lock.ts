import fs from "node:fs";
import path from "node:path";

export class DatabaseLockedError extends Error {
  override name = "DatabaseLockedError";
  constructor(
    readonly dbPath: string,
    readonly pid: number,
  ) {
    super(`database at ${dbPath} is in use by process ${pid}`);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readOwner(lockPath: string): number | null {
  try {
    const pid = Number.parseInt(fs.readFileSync(lockPath, "utf8").trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * Takes an exclusive lock on an embedded database folder, the way PostgreSQL's postmaster.pid
 * does: a lock file created with O_EXCL holding the owner's pid. PGlite itself does not lock its
 * folder, and two processes writing one folder corrupt it. A lock left by a dead process is
 * taken over. Returns the function that releases the lock.
 */
export function acquireDirectoryLock(dbPath: string): () => void {
  const lockPath = `${dbPath}.lock`;
  fs.mkdirSync(path.dirname(lockPath), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(lockPath, "wx", 0o600);
      fs.writeSync(fd, `${process.pid}\n`);
      fs.closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        if (readOwner(lockPath) === process.pid) fs.rmSync(lockPath, { force: true });
      };
      // A crash still leaves the file; the next start sees a dead pid and takes it over.
      process.once("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = readOwner(lockPath);
      if (owner !== null && owner !== process.pid && isAlive(owner)) {
        throw new DatabaseLockedError(dbPath, owner);
      }
      if (owner === process.pid) throw new DatabaseLockedError(dbPath, owner);
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new DatabaseLockedError(dbPath, readOwner(lockPath) ?? 0);
}
