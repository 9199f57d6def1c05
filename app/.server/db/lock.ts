import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

export class DatabaseLockedError extends Error {
  override name = "DatabaseLockedError";
  constructor(
    readonly dbPath: string,
    readonly pid: number,
  ) {
    super(
      `database at ${dbPath} is in use by process ${pid > 0 ? pid : "(unknown)"}` +
        (pid > 0 && !visibleFromHere(pid)
          ? ", a pid of another PID namespace (another container or host shares this folder):" +
            " stop that process first, or use DATABASE_URL to run several"
          : ""),
    );
  }
}

/** Whether `pid` names a process in our PID namespace (EPERM: it exists, someone else's). */
export function visibleFromHere(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

interface NativeLocks {
  /** An exclusive lock on the whole file, held by this open file description; false if taken. */
  tryLock(fd: number): boolean;
}

let nativeLocks: NativeLocks | undefined;

/**
 * fs-native-extensions: open file description locks (fcntl F_OFD_SETLK) on Linux, flock on
 * macOS, LockFileEx on Windows, from binaries shipped in its npm package (decision 0027). Loaded
 * on first use, so that only the embedded database needs it.
 */
function locks(): NativeLocks {
  if (nativeLocks) return nativeLocks;
  try {
    nativeLocks = createRequire(import.meta.url)("fs-native-extensions") as NativeLocks;
  } catch (error) {
    throw new Error(
      `the embedded database's folder lock needs fs-native-extensions, whose native addon did not ` +
        `load on ${process.platform}-${process.arch}: run npm install, or set DATABASE_URL`,
      { cause: error },
    );
  }
  return nativeLocks;
}

/** Waits `ms` without returning to the event loop (start-up code, a few milliseconds at most). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * The pid the lock's holder wrote into it. It writes it right after taking the lock, so a file
 * still empty is read again a few times; 0 when it names none.
 */
function readOwner(lockPath: string): number {
  for (let attempt = 0; attempt < 10; attempt++) {
    let text: string;
    try {
      text = fs.readFileSync(lockPath, "utf8");
    } catch {
      // Gone (released meanwhile), or unreadable (a mandatory lock on Windows): no pid to name.
      return 0;
    }
    const pid = Number.parseInt(text.trim(), 10);
    if (Number.isInteger(pid) && pid > 0) return pid;
    pause(10);
  }
  return 0;
}

/** Whether the open `fd` is still the file at `lockPath` (and not one removed since). */
function isCurrent(fd: number, lockPath: string): boolean {
  const opened = fs.fstatSync(fd);
  const named = fs.statSync(lockPath, { throwIfNoEntry: false });
  return named !== undefined && named.ino === opened.ino && named.dev === opened.dev;
}

/**
 * Takes an exclusive lock on an embedded database folder: PGlite itself does not lock its folder,
 * and two processes writing one folder corrupt it. The lock is the kernel's, on the open file
 * `<dbPath>.lock` (decision 0027): it is held for as long as this process keeps that file open,
 * and it goes when the process ends, however it ends. Unlike a pid in a file, it is seen by every
 * process on this machine, whatever PID namespace (container) it runs in, and on the network
 * filesystems whose locks the kernel passes on (NFS). The file holds the holder's pid, only to
 * name it in the error. Throws DatabaseLockedError when another open file holds the lock, in this
 * process or another. Returns the function that releases the lock.
 */
export function acquireDirectoryLock(dbPath: string): () => void {
  const lockPath = `${dbPath}.lock`;
  const { tryLock } = locks();
  // Owner-only, like the database folder beside it (decision 0027).
  fs.mkdirSync(path.dirname(lockPath), { recursive: true, mode: 0o700 });
  for (let attempt = 0; attempt < 10; attempt++) {
    // Never truncated on open: the holder's pid stays readable for the error.
    const fd = fs.openSync(lockPath, fs.constants.O_RDWR | fs.constants.O_CREAT, 0o600);
    let locked = false;
    try {
      locked = tryLock(fd);
    } finally {
      if (!locked) fs.closeSync(fd);
    }
    if (!locked) throw new DatabaseLockedError(dbPath, readOwner(lockPath));
    // A releasing holder removes the file before it lets go of the lock: a file we opened just
    // before that is no longer the lock file, and whoever opens the name now gets another one.
    if (!isCurrent(fd, lockPath)) {
      fs.closeSync(fd);
      continue;
    }
    const pid = Buffer.from(`${process.pid}\n`);
    fs.ftruncateSync(fd, 0);
    fs.writeSync(fd, pid, 0, pid.length, 0);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      process.removeListener("exit", release);
      try {
        // Removed while still locked, then closed: see above.
        if (isCurrent(fd, lockPath)) fs.rmSync(lockPath, { force: true });
      } finally {
        fs.closeSync(fd);
      }
    };
    // The lock would go with the process anyway; this also takes the file away on a clean exit.
    process.once("exit", release);
    return release;
  }
  throw new DatabaseLockedError(dbPath, readOwner(lockPath));
}
