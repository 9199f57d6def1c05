import { Form, Link } from "react-router";
import { usePendingForms } from "~/components/use-form-pending";
import { z } from "zod";
import {
  changeUserRole,
  parseUserQuery,
  roleSchema,
  searchUsers,
} from "~/.server/admin/users.server";
import { requireAdmin } from "~/.server/auth/session";
import { done, formAction, refuse } from "~/.server/forms/action.server";
import { formatDate } from "~/lib/dates";
import { AdminPage, AdminSection, TD, TD_NUM, AdminTable } from "~/components/admin/AdminUi";
import { FormMessage } from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { customerPageById } from "~/lib/admin-paths";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/users";
import { Pager } from "~/components/admin/Pager";

export const meta: Route.MetaFunction = () => pageMeta("Users", "Find and manage user accounts.");

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = requireAdmin(context);
  const list = await searchUsers(parseUserQuery(new URL(request.url).searchParams));
  return { list, currentUserId: user.id };
}

const actionSchema = z.object({
  intent: z.literal("set-role"),
  userId: z.string().trim().min(1).max(200),
  role: roleSchema,
});

export async function action(args: Route.ActionArgs) {
  return formAction(
    args,
    actionSchema,
    async ({ intent, userId, role }, { user }) => {
      const result = await changeUserRole({ actorId: user.id, targetId: userId, role });
      return result.ok
        ? done(intent, result.message)
        : refuse(intent, result.message, result.status);
    },
    { role: "admin", invalidMessage: "Choose a role of user or admin for an existing user." },
  );
}

export default function UsersPage({ loaderData, actionData }: Route.ComponentProps) {
  const { list, currentUserId } = loaderData;
  const pending = usePendingForms();
  const first = list.total === 0 ? 0 : list.offset + 1;
  const last = list.offset + list.users.length;

  return (
    <AdminPage>
      <PageHeader title="Users" lead="Find accounts and change who is an admin." />

      <Form method="get" role="search" className="flex max-w-xl items-end gap-3">
        <div className="flex-1">
          <label htmlFor="user-search" className="block text-sm font-medium text-slate-200">
            Search by email or name
          </label>
          <input
            id="user-search"
            type="search"
            name="q"
            defaultValue={list.q}
            maxLength={200}
            className="mt-1 block w-full rounded-lg border border-slate-700 bg-slate-900 px-3 py-2 text-slate-100 focus:border-green-400 focus:outline-none"
          />
        </div>
        <button type="submit" className="btn-primary">
          Search
        </button>
        {list.q ? (
          <Link to="/admin/users" className="btn-secondary">
            Clear
          </Link>
        ) : null}
      </Form>

      {actionData ? (
        <FormMessage tone={actionData.ok ? "success" : "error"} message={actionData.message} />
      ) : null}

      <AdminSection
        id="user-list"
        title={list.q ? `Users matching “${list.q}”` : "All users"}
        lead={
          list.total === 0
            ? undefined
            : `${first}–${last} of ${list.total.toLocaleString("en-IN")}, newest first.`
        }
      >
        {list.users.length === 0 ? (
          <p className="text-slate-300">
            {list.q ? "No user matches that search." : "Nobody has signed up yet."}
          </p>
        ) : (
          <AdminTable
            caption={`Users, page ${list.page}`}
            columns={[
              "Name",
              "Email",
              "Verified",
              "Role",
              "Created",
              { label: "Active devices", alignRight: true },
              "Change role",
            ]}
          >
            {list.users.map((row) => {
              const self = row.id === currentUserId;
              return (
                <tr key={row.id} className="border-b border-slate-800">
                  <th scope="row" className={`${TD} font-medium text-white`}>
                    {row.name}
                    {self ? <span className="ml-1 text-green-400">(you)</span> : null}
                  </th>
                  <td className={`${TD} break-all`}>
                    <Link to={customerPageById(row.id)} className="link">
                      {row.email}
                    </Link>
                  </td>
                  <td className={TD}>{row.emailVerified ? "yes" : "no"}</td>
                  <td className={TD}>
                    {row.role}
                    {row.adminByEmail ? (
                      <span className="block text-xs text-slate-400">via ADMIN_EMAILS</span>
                    ) : null}
                  </td>
                  <td className={`${TD} whitespace-nowrap`}>
                    <time dateTime={row.createdAt}>{formatDate(row.createdAt)}</time>
                  </td>
                  <td className={TD_NUM}>{row.activeDevices}</td>
                  <td className={TD}>
                    <Form method="post" className="flex items-center gap-2">
                      <input type="hidden" name="intent" value="set-role" />
                      <input type="hidden" name="userId" value={row.id} />
                      <label htmlFor={`role-${row.id}`} className="sr-only">
                        Role of {row.email}
                      </label>
                      <select
                        // Remounted after every action, so a refused change shows the stored role again.
                        key={`${row.role}:${actionData?.message ?? ""}`}
                        id={`role-${row.id}`}
                        name="role"
                        defaultValue={row.role}
                        className="rounded-lg border border-slate-700 bg-slate-900 px-2 py-1 text-sm text-slate-100"
                      >
                        <option value="user">user</option>
                        <option value="admin">admin</option>
                      </select>
                      <button
                        type="submit"
                        className="btn-secondary px-3 py-1"
                        disabled={pending({ intent: "set-role", fields: { userId: row.id } })}
                        aria-label={`Save the role of ${row.email}`}
                      >
                        Save
                      </button>
                    </Form>
                  </td>
                </tr>
              );
            })}
          </AdminTable>
        )}

        <Pager
          label="Pages of users"
          path="/admin/users"
          filters={{ q: list.q }}
          page={list.page}
          pageCount={list.pageCount}
          total={list.total}
          noun={["user", "users"]}
        />
      </AdminSection>
    </AdminPage>
  );
}
