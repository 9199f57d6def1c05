/**
 * Floating team seats (issue 57, point 2; decision 0064), browser-safe: the two ways a team's
 * seats are held, the overage allowances an owner may choose, how many machines an allowance
 * admits, and the words for why a lease ended. The team page, the check-in and the tests read
 * these; nothing else spells a mode or an allowance.
 */

/** Named: a seat belongs to a person (as before). Floating: a machine takes one while it runs. */
export const SEAT_MODES = ["named", "floating"] as const;
export type SeatMode = (typeof SEAT_MODES)[number];

export function isSeatMode(value: unknown): value is SeatMode {
  return typeof value === "string" && (SEAT_MODES as readonly string[]).includes(value);
}

/**
 * Overage allowances as Keygen offers them (none, 1.25×, 1.5×, 2× the seats), stored as the
 * percentage over: machines admitted beyond the seats are shown to the owner, never charged.
 */
export const OVERAGE_PERCENTS = [0, 25, 50, 100] as const;
export type OveragePercent = (typeof OVERAGE_PERCENTS)[number];

export const OVERAGE_LABELS = {
  0: "None: never more machines than seats",
  25: "1.25× the seats",
  50: "1.5× the seats",
  100: "2× the seats",
} as const satisfies Record<OveragePercent, string>;

export function isOveragePercent(value: unknown): value is OveragePercent {
  return typeof value === "number" && (OVERAGE_PERCENTS as readonly number[]).includes(value);
}

/**
 * How many machines may hold a lease at once: the seats, plus the allowance rounded down (never
 * more than the factor says: 1.25× of 2 seats admits 2, of 4 seats 5).
 */
export function machinesAllowed(seats: number, overagePercent: OveragePercent): number {
  return Math.floor((seats * (100 + overagePercent)) / 100);
}

/** Why a lease ended, in the order a team page explains them. */
export const LEASE_END_REASONS = [
  "quit",
  "signed-out",
  "expired",
  "left-team",
  "own-plan",
  "mode-changed",
  "seats-reduced",
] as const;
export type LeaseEndReason = (typeof LEASE_END_REASONS)[number];

export const LEASE_END_WORDS = {
  quit: "quit the app",
  "signed-out": "signed out",
  expired: "stopped checking in",
  "left-team": "left the team",
  "own-plan": "has Pro of their own",
  "mode-changed": "the team moved to named seats",
  "seats-reduced": "the team has fewer seats now",
} as const satisfies Record<LeaseEndReason, string>;

/** What a machine refused a lease is told (the app shows it as it is). */
export function floatingRefusalText(team: string, seats: number, allowed: number): string {
  const held = allowed === 1 ? "1 machine" : `${allowed} machines`;
  const taken =
    seats === 1
      ? `${team}'s 1 floating seat is in use`
      : `All of ${team}'s ${seats} floating seats are in use`;
  const overage = allowed > seats ? ` (with its overage allowance, up to ${held})` : "";
  return `${taken}${overage}. Pro starts on this machine when a seat is free: quit the app on another machine, or ask the team's owner for more seats.`;
}

/** The most leases open at once among `leases` within [from, now]. */
export function peakOverlap(
  leases: readonly { start: Date; end: Date }[],
  from: Date,
  now: Date,
): number {
  const events: [number, number][] = [];
  for (const lease of leases) {
    const start = Math.max(lease.start.getTime(), from.getTime());
    const end = Math.min(lease.end.getTime(), now.getTime());
    if (end <= start && lease.end.getTime() <= now.getTime()) continue;
    events.push([start, 1], [end, -1]);
  }
  // At one instant, an end before a start: a seat given back and taken again is one seat.
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let open = 0;
  let peak = 0;
  for (const [, change] of events) {
    open += change;
    peak = Math.max(peak, open);
  }
  return peak;
}

/**
 * Why the team page made no licence file (issue 57, point 3): the form posts to a resource route
 * (the answer is a download), which sends a refusal back as `?licence=<code>`; the page says
 * these words, never text from the address.
 */
export const TEAM_LICENCE_FILE_REFUSALS = {
  named:
    "A licence file from the team's page holds one of its floating seats: choose floating seats first. With named seats, each person makes files for their own computers on their Security page.",
  full: "All the floating seats are in use: a licence file needs a free one. Ask someone to quit the app, or add seats.",
  ends: "What the team paid for ends too soon for a licence file: renew first, then make the file.",
  invalid:
    "Name the computer, paste the fingerprint the app shows on it (8 characters or more), and choose how long the file is valid.",
} as const;
export type TeamLicenceFileRefusal = keyof typeof TEAM_LICENCE_FILE_REFUSALS;

export function isTeamLicenceFileRefusal(value: unknown): value is TeamLicenceFileRefusal {
  return typeof value === "string" && Object.hasOwn(TEAM_LICENCE_FILE_REFUSALS, value);
}
