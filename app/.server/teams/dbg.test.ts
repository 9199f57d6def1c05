import { it } from "vitest";
import { insertUser, openTestDatabase } from "../../../tests/support/test-database";
import { entitlementFor } from "../billing/entitlement.server";
import { sql } from "drizzle-orm";
it("dbg", async () => {
  const test = await openTestDatabase();
  const u = await insertUser(test.db, { email: "a@x.example" });
  await test.db.execute(sql.raw(`insert into organization (id, name, slug, created_at) values ('o1','T','t', now())`));
  await test.db.execute(sql.raw(`insert into member (id, organization_id, user_id, role, created_at) values ('m1','o1','${u}','member', now())`));
  await test.db.execute(sql.raw(`insert into team_seats (organization_id, user_id) values ('o1','${u}')`));
  await test.db.execute(sql.raw(`insert into subscriptions (provider_subscription_id, team_id, plan_id, provider_plan_id, status, current_end, synced_at, seats) values ('sub_1','o1','pro-monthly','plan_x','active', now() + interval '10 days', now(), 3)`));
  const q = await test.db.execute(sql.raw(`select 1`));
  try { console.log(JSON.stringify(await entitlementFor(String(u), { database: test.db }))); } catch (e) { console.log("ERR", e); }
  await test.close();
});
