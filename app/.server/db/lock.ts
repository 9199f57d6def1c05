import { randomBytes } from "node:crypto";
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

/** The pid a lock file names: 0 when it names none (damaged), null when there is no file. */
function readOwner(lockPath: string): number | null {
  let text: string;
  try {
    text = fs.readFileSync(lockPath, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  const pid = Number.parseInt(text.trim(), 10);
  return Number.isInteger(pid) && pid > 0 ? pid : 0;
}

/**
 * Creates the lock file with our pid already in it, or returns false when one exists. The file is
 * written under another name and hard-linked into place (link fails if the name exists), so no
 * other process ever sees it empty: an empty lock file would look damaged, hence stale, and be
 * removed while its owner was still writing it. Where hard links are refused, an exclusive create.
 */
function createLockFile(lockPath: string): boolean {
  const draft = `${lockPath}.${process.pid}.${randomBytes(6).toString("hex")}`;
  fs.writeFileSync(draft, `${process.pid}\n`, { mode: 0o600 });
  try {
    fs.linkSync(draft, lockPath);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return false;
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EXDEV") throw error;
  } finally {
    fs.rmSync(draft, { force: true });
  }
  try {
    const fd = fs.openSync(lockPath, "wx", 0o600);
    fs.writeSync(fd, `${process.pid}\n`);
    fs.closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
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
function removeStaleLock(lockPath: string, staleOwner: number): boolean {
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
    if (createLockFile(lockPath)) {
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
    }
    const owner = readOwner(lockPath);
    // Released between our attempt and this look: try again.
    if (owner === null) continue;
    if (owner === process.pid && held.has(lockPath)) throw new DatabaseLockedError(dbPath, owner);
    if (owner !== 0 && owner !== process.pid && isAlive(owner))
      throw new DatabaseLockedError(dbPath, owner);
    removeStaleLock(lockPath, owner);
  }
  throw new DatabaseLockedError(dbPath, readOwner(lockPath) ?? 0);
}
