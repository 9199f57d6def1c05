/** The people of a team on its page: role, seat and devices, and what the viewer may change. */
import { Form } from "react-router";
import type { TeamPage } from "~/.server/teams/team-page.server";
import { usePendingForms } from "~/components/use-form-pending";
import { formatDate } from "~/lib/dates";

export function TeamMembers({
  members,
  seats,
  manages,
  isOwner,
  me,
}: {
  members: TeamPage["team"]["members"];
  seats: TeamPage["seats"];
  /** The viewer is the owner or a billing manager: they hand out seats. */
  manages: boolean;
  /** The viewer is the owner: they change roles and remove people. */
  isOwner: boolean;
  /** The viewer's user id. */
  me: string;
}) {
  const pending = usePendingForms();
  return (
    <ul className="divide-y divide-slate-800">
      {members.map((person) => (
        <li key={person.id} className="flex flex-wrap items-center gap-3 py-3">
          <span className="min-w-0 flex-1 text-slate-200">
            <span className="block font-medium text-white">{person.name}</span>
            <span className="block break-all text-sm text-slate-300">{person.email}</span>
          </span>
          <span className="text-sm text-slate-300">
            {`${person.roleLabel}${seats.holders.includes(person.userId) ? ", Pro seat" : ""}, since ${formatDate(person.joinedAt)}${
              person.devices === null
                ? ""
                : `; ${person.devices === 1 ? "1 device" : `${person.devices} devices`} signed in${
                    person.lastSeenAt ? `, last seen ${formatDate(person.lastSeenAt)}` : ""
                  }${
                    person.silentDevices
                      ? ` (${person.silentDevices} silent too long: ${person.silentDevices === 1 ? "its slot is" : "their slots are"} freed)`
                      : ""
                  }`
            }`}
          </span>
          {manages && seats.bought > 0 && seats.mode === "named" ? (
            <Form method="post">
              <input
                type="hidden"
                name="intent"
                value={seats.holders.includes(person.userId) ? "take-seat" : "give-seat"}
              />
              <input type="hidden" name="memberId" value={person.id} />
              <button
                type="submit"
                className="btn-secondary"
                disabled={pending({
                  intent: ["give-seat", "take-seat"],
                  fields: { memberId: person.id },
                })}
              >
                {seats.holders.includes(person.userId) ? "Take the seat back" : "Give a seat"}
                <span className="sr-only">{` (${person.email})`}</span>
              </button>
            </Form>
          ) : null}
          {isOwner && person.userId !== me ? (
            <span className="flex flex-wrap gap-2">
              <Form method="post" className="flex items-end gap-2">
                <input type="hidden" name="intent" value="role" />
                <input type="hidden" name="memberId" value={person.id} />
                <label className="text-sm text-slate-300">
                  <span className="sr-only">{`Role of ${person.email}`}</span>
                  <select
                    name="role"
                    defaultValue={person.role}
                    className="rounded-lg border border-slate-700 bg-slate-950 px-2 py-1 text-slate-100"
                  >
                    <option value="member">Member</option>
                    <option value="billing">Billing manager</option>
                    <option value="owner">Owner</option>
                  </select>
                </label>
                <button
                  type="submit"
                  className="btn-secondary"
                  disabled={pending({ intent: "role", fields: { memberId: person.id } })}
                >
                  Change role<span className="sr-only">{` of ${person.email}`}</span>
                </button>
              </Form>
              <Form method="post">
                <input type="hidden" name="intent" value="remove" />
                <input type="hidden" name="memberId" value={person.id} />
                <button
                  type="submit"
                  className="btn-secondary"
                  disabled={pending({ intent: "remove", fields: { memberId: person.id } })}
                >
                  Remove<span className="sr-only">{` ${person.email}`}</span>
                </button>
              </Form>
            </span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
