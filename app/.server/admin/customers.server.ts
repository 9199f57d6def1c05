import { type Entitlement, entitlementFor } from "../billing/entitlement.server";
import { personBuyer } from "../billing/buyer";
import type { PlanShown } from "~/lib/pro-source";
import { billingOverview } from "../billing/overview.server";
import { planShownFor } from "../billing/plan-shown.server";
import { trialOf } from "../trials/trials.server";
import { type Database, db as defaultDb } from "../db";
import { listDevices, revokeDevice } from "../desktop/devices.server";
import { roleOf, type Role } from "../auth/session";
import { findUserByEmail, findUserById } from "./users.server";

export interface CustomerDevice {
  id: string;
  name: string;
  platform: string;
  appVersion: string;
  createdAt: string;
  lastSeenAt: string;
}

export interface Customer {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  role: Role;
  banned: boolean;
  createdAt: string;
  entitlement: Entitlement;
  /** The plan and where it comes from, as the customer's own pages say it (issue 54). */
  plan: PlanShown;
  devices: CustomerDevice[];
}

/**
 * What support needs to see about one customer, found by address or by id: account,
 * entitlement and signed-in devices.
 */
export async function findCustomer(
  by: { email: string } | { id: string },
  database: Database = defaultDb(),
): Promise<Customer | null> {
  const user =
    "email" in by ? await findUserByEmail(by.email, database) : await findUserById(by.id, database);
  if (!user) return null;
  const now = new Date();
  const [entitlement, devices, overview, trial] = await Promise.all([
    entitlementFor(user.id, { database, now }),
    listDevices(user.id, database),
    billingOverview(personBuyer(user.id), database),
    trialOf(user.id, database),
  ]);
  const plan = planShownFor({ entitlement, overview, trialEndsAt: trial?.endsAt ?? null, now });
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    emailVerified: user.emailVerified,
    role: roleOf(user),
    banned: user.banned ?? false,
    createdAt: user.createdAt.toISOString(),
    entitlement,
    plan,
    devices: devices.map((device) => ({
      id: device.id,
      name: device.name,
      platform: device.platform,
      appVersion: device.appVersion,
      createdAt: device.createdAt.toISOString(),
      lastSeenAt: device.lastSeenAt.toISOString(),
    })),
  };
}

/**
 * Signs out one of a customer's devices. The owner is checked too, so a stale page cannot sign
 * out a device that belongs to someone else.
 */
export async function signOutCustomerDevice(
  userId: string,
  deviceId: string,
  database: Database = defaultDb(),
): Promise<boolean> {
  return revokeDevice(deviceId, userId, database);
}
