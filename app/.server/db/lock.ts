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

/** Locks this process holds: a lock file naming our own pid is stale unless it is one of these. */
const held = new Set<string>();

/** A takeover left behind by a process that died in the middle of it, after this long. */
const TAKEOVER_STALE_MS = 10_000;

/**
 * Removes a stale lock so that exactly one process may create the new one: the removal happens
 * under a takeover directory that only one process can create (mkdir is atomic), after checking
 * again that the lock is still the stale one that was seen.
 */
function removeStaleLock(lockPath: string, staleOwner: number | null): boolean {
  const takeover = `${lockPath}.takeover`;
  try {
    fs.mkdirSync(takeover);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const age =
      Date.now() - (fs.statSync(takeover, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (age > TAKEOVER_STALE_MS) fs.rmSync(takeover, { recursive: true, force: true });
    return false;
  }
  try {
    if (readOwner(lockPath) !== staleOwner) return false;
    fs.rmSync(lockPath, { force: true });
    return true;
  } finally {
    fs.rmSync(takeover, { recursive: true, force: true });
  }
}

/**
 * Takes an exclusive lock on an embedded database folder, the way PostgreSQL's postmaster.pid
 * does: a lock file created with O_EXCL holding the owner's pid. PGlite itself does not lock its
 * folder, and two processes writing one folder corrupt it. A lock left by a dead process is
 * taken over, and so is one naming our own pid that this process does not hold (in a container
 * the server is PID 1 after every restart). Returns the function that releases the lock.
 */
export function acquireDirectoryLock(dbPath: string): () => void {
  const lockPath = `${dbPath}.lock`;
  fs.mkdirSync(path.dirname(lockPath), { recursive: true });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(lockPath, "wx", 0o600);
      fs.writeSync(fd, `${process.pid}\n`);
      fs.closeSync(fd);
      held.add(lockPath);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        held.delete(lockPath);
        if (readOwner(lockPath) === process.pid) fs.rmSync(lockPath, { force: true });
      };
      // A crash still leaves the file; the next start sees a dead pid and takes it over.
      process.once("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = readOwner(lockPath);
      if (owner === process.pid && held.has(lockPath)) throw new DatabaseLockedError(dbPath, owner);
      if (owner !== null && owner !== process.pid && isAlive(owner))
        throw new DatabaseLockedError(dbPath, owner);
      removeStaleLock(lockPath, owner);
    }
  }
  throw new DatabaseLockedError(dbPath, readOwner(lockPath) ?? 0);
}
