/**
 * Runs a command-line script's `main`: what it returns is the exit code; a failure it does not
 * handle prints `error: …` and exits with 1.
 */
export function runMain(main: () => Promise<number>): void {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    },
  );
}
