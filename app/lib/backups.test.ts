import { describe, expect, it } from "vitest";
import { backupHealth } from "./backups";

const NOW = new Date("2026-11-28T12:00:00Z");
const hoursAgo = (hours: number) => new Date(NOW.getTime() - hours * 3_600_000);

describe("backupHealth", () => {
  it("says backups are off until BACKUP_DIR is set", () => {
    const health = backupHealth(
      { configured: false, intervalHours: 0, lastSuccessAt: null, lastRunFailed: false },
      NOW,
    );
    expect(health.ok).toBe(false);
    expect(health.message).toMatch(/^Backups are off: set BACKUP_DIR/);
  });

  it("needs the operator when none has succeeded yet, or the last attempt failed", () => {
    expect(
      backupHealth(
        { configured: true, intervalHours: 24, lastSuccessAt: null, lastRunFailed: false },
        NOW,
      ),
    ).toEqual({ ok: false, message: "No backup has been taken yet." });
    expect(
      backupHealth(
        { configured: true, intervalHours: 24, lastSuccessAt: null, lastRunFailed: true },
        NOW,
      ).message,
    ).toBe("No backup has succeeded yet: the last attempt failed.");
    expect(
      backupHealth(
        { configured: true, intervalHours: 24, lastSuccessAt: hoursAgo(3), lastRunFailed: true },
        NOW,
      ),
    ).toEqual({
      ok: false,
      message:
        "The last backup succeeded on 28 Nov 2026, 2:30 pm (3 hours ago); the attempt after it failed.",
    });
  });

  it("is fine within two intervals of the last success, and overdue after", () => {
    const input = { configured: true, intervalHours: 24, lastRunFailed: false };
    expect(backupHealth({ ...input, lastSuccessAt: hoursAgo(47) }, NOW).ok).toBe(true);
    const late = backupHealth({ ...input, lastSuccessAt: hoursAgo(48) }, NOW);
    expect(late.ok).toBe(false);
    expect(late.message).toMatch(/: that is too long for a backup every 24 hours\.$/);
  });

  it("without a schedule, wants one at least weekly", () => {
    const input = { configured: true, intervalHours: 0, lastRunFailed: false };
    expect(backupHealth({ ...input, lastSuccessAt: hoursAgo(0.5) }, NOW).message).toBe(
      "The last backup succeeded on 28 Nov 2026, 5:00 pm (under an hour ago).",
    );
    expect(backupHealth({ ...input, lastSuccessAt: hoursAgo(7 * 24) }, NOW).ok).toBe(false);
  });
});
