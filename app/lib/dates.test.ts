import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime, formatDay } from "~/lib/dates";

describe("dates", () => {
  it("shows a calendar day as that day, whatever the time zone", () => {
    expect(formatDate("2026-03-01")).toBe("1 Mar 2026");
    expect(formatDate("2026-08-11", "long")).toBe("11 August 2026");
    expect(formatDay("2026-12-31")).toBe("31 Dec");
  });

  it("shows an instant in India time", () => {
    // 18:30 UTC is midnight in India: already the next day there.
    expect(formatDate("2026-03-10T18:30:00Z")).toBe("11 Mar 2026");
    expect(formatDateTime("2026-03-10T18:30:00Z")).toBe("11 Mar 2026, 12:00 am");
    expect(formatDateTime("2026-03-11T09:34:00Z")).toBe("11 Mar 2026, 3:04 pm");
    expect(formatDateTime(new Date("2026-03-11T06:30:00Z"))).toBe("11 Mar 2026, 12:00 pm");
  });

  it("agrees with Intl's en-IN formatting for any instant", () => {
    const intl = new Intl.DateTimeFormat("en-IN", {
      day: "numeric",
      month: "short",
      year: "numeric",
      timeZone: "Asia/Kolkata",
    });
    fc.assert(
      fc.property(
        fc.date({ min: new Date("2000-01-01"), max: new Date("2100-01-01"), noInvalidDate: true }),
        (date) => {
          // Intl writes "Sept" for September in en-IN; ours is the three-letter form everywhere.
          expect(formatDate(date)).toBe(intl.format(date).replace("Sept", "Sep"));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("leaves what is not a date as it is", () => {
    expect(formatDate("soon")).toBe("soon");
  });
});
