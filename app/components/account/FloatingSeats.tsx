/**
 * A team's floating seats on its page (issue 57, point 2): how its seats are held (and the
 * choice, for those who manage it), the machines holding one now with any overage, the peak of
 * the last 30 days, who was refused when all were taken, why recent leases ended, and a licence
 * file for a machine without internet (point 3).
 */
import { Form, useSearchParams } from "react-router";
import { LicenceFileFields } from "~/components/account/LicenceFileFields";
import type { TeamPage } from "~/.server/teams/team-page.server";
import { FormMessage, SelectField, SubmitButton } from "~/components/forms";
import { usePendingForms } from "~/components/use-form-pending";
import { formatDateTime } from "~/lib/dates";
import {
  isTeamLicenceFileRefusal,
  LEASE_END_WORDS,
  TEAM_LICENCE_FILE_REFUSALS,
  OVERAGE_LABELS,
  OVERAGE_PERCENTS,
  type OveragePercent,
} from "~/lib/floating-seats";
import { seatsText } from "~/lib/seats";

type Floating = TeamPage["floating"];

const machines = (count: number) => (count === 1 ? "1 machine" : `${count} machines`);

/** The seats' mode in words, and the machines using floating seats now. */
export function FloatingSeats({
  floating,
  manages,
  hasSeats,
  errors,
  teamId,
}: {
  floating: Floating;
  manages: boolean;
  hasSeats: boolean;
  errors: { mode?: string[]; overagePercent?: string[] };
  teamId: string;
}) {
  const pending = usePendingForms();
  const isFloating = floating.mode === "floating";
  return (
    <div className="text-slate-300" data-testid="floating-seats">
      <p>
        {isFloating
          ? "Floating seats: any member may run Pro on a machine while the app is open there, as long as a seat is free. Quitting the app or signing out gives the seat back; a machine that stops checking in gives it back after a while."
          : "Named seats: each seat belongs to one person, on all their machines."}
      </p>
      {isFloating && floating.seats > 0 ? (
        <p className="mt-2 text-white" data-testid="floating-use">
          {`${machines(floating.inUseCount)} of ${seatsText(floating.seats)} in use now${
            floating.allowed > floating.seats
              ? ` (the overage allowance admits up to ${machines(floating.allowed)})`
              : ""
          }. Most at once in the last 30 days: ${machines(floating.peak30)}.`}
        </p>
      ) : null}
      {isFloating && floating.over > 0 ? (
        <p className="mt-2 text-amber-200" data-testid="floating-overage">
          {`Overage: ${machines(floating.over)} beyond the seats you pay for, admitted by the overage allowance. Overage is never charged; add seats if the team needs them every day.`}
        </p>
      ) : null}
      {manages && floating.inUse.length > 0 ? (
        <div className="mt-4 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Machines holding a floating seat</caption>
            <thead>
              <tr className="text-slate-400">
                <th className="py-1 pr-3 font-medium">Person</th>
                <th className="py-1 pr-3 font-medium">Machine</th>
                <th className="py-1 pr-3 font-medium">Since</th>
                <th className="py-1 font-medium">Last check-in</th>
              </tr>
            </thead>
            <tbody>
              {floating.inUse.map((lease) => (
                <tr key={`${lease.person}-${lease.machine}-${lease.acquiredAt}`}>
                  <td className="py-1 pr-3 break-all">{lease.person}</td>
                  <td className="py-1 pr-3">
                    {`${lease.machine} (${lease.file ? `licence file until ${formatDateTime(lease.expiresAt)}` : lease.platform})${lease.overage ? ", overage" : ""}`}
                  </td>
                  <td className="py-1 pr-3">{formatDateTime(lease.acquiredAt)}</td>
                  <td className="py-1">{formatDateTime(lease.renewedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {manages && floating.refused.length > 0 ? (
        <>
          <h3 className="mt-4 font-medium text-white">Refused when all seats were taken</h3>
          <ul className="mt-1 text-sm" data-testid="floating-refused">
            {floating.refused.map((row) => (
              <li key={`${row.person}-${row.at}`}>
                {`${row.person}${row.machine ? ` on ${row.machine}` : ""}, ${formatDateTime(row.at)}`}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {manages && floating.ended.length > 0 ? (
        <>
          <h3 className="mt-4 font-medium text-white">Seats given back lately</h3>
          <ul className="mt-1 text-sm">
            {floating.ended.map((row) => (
              <li key={`${row.person}-${row.machine}-${row.at}`}>
                {`${row.machine} (${row.person}): ${LEASE_END_WORDS[row.reason]}, ${formatDateTime(row.at)}`}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {manages && isFloating && floating.seats > 0 ? <TeamLicenceFile teamId={teamId} /> : null}
      {manages && hasSeats ? (
        <Form method="post" noValidate className="mt-4 grid gap-x-4 sm:grid-cols-2">
          <input type="hidden" name="intent" value="seat-mode" />
          <SelectField
            label="How seats are held"
            name="mode"
            defaultValue={floating.mode}
            errors={errors.mode}
          >
            <option value="named">Named: one person each</option>
            <option value="floating">Floating: one machine each, while the app runs</option>
          </SelectField>
          <SelectField
            label="Overage allowance (floating seats)"
            name="overagePercent"
            defaultValue={String(floating.overagePercent)}
            errors={errors.overagePercent}
            hint="Machines beyond the seats are shown here as overage, never charged."
          >
            {OVERAGE_PERCENTS.map((percent: OveragePercent) => (
              <option key={percent} value={percent}>
                {OVERAGE_LABELS[percent]}
              </option>
            ))}
          </SelectField>
          <div className="sm:col-span-2">
            <SubmitButton
              pending={pending({ intent: "seat-mode" })}
              label="Save how seats are held"
              pendingLabel="Saving…"
            />
          </div>
        </Form>
      ) : null}
    </div>
  );
}

/**
 * A licence file for one of the team's machines without internet (issue 57, point 3): it holds a
 * floating seat until it ends. A document post to a resource route: the answer is a file the
 * browser saves, or this page again with why not.
 */
function TeamLicenceFile({ teamId }: { teamId: string }) {
  const [params] = useSearchParams();
  const code = params.get("licence");
  return (
    <div className="mt-6" data-testid="team-licence-file">
      <h3 className="font-medium text-white">A machine without internet</h3>
      <p className="mt-1 text-sm">
        A licence file lets Pro run on a team machine that never reaches this site. It holds one of
        the floating seats until it ends (never after what the team paid for), and cannot be
        withdrawn before: choose its length with care.
      </p>
      {isTeamLicenceFileRefusal(code) ? (
        <FormMessage tone="error" message={TEAM_LICENCE_FILE_REFUSALS[code]} />
      ) : null}
      <Form
        method="post"
        action={`/account/team/${teamId}/licence-file`}
        reloadDocument
        className="mt-3 grid gap-x-4 sm:grid-cols-3"
      >
        <LicenceFileFields
          nameLabel="Machine's name"
          fingerprintLabel="Its fingerprint"
          validityLabel="File valid for"
        />
        <button type="submit" className="btn-secondary sm:col-span-3 sm:justify-self-start">
          Download the team's licence file
        </button>
      </Form>
    </div>
  );
}
