import { env } from "../env";

export type Role = "user" | "admin";

/**
 * Admin when the stored role says so, or when a verified email is listed in ADMIN_EMAILS. A module
 * of its own (only the environment): the alerts and the job worker ask it without importing the
 * session module and, through it, the auth library and the job queue.
 */
export function roleOf(user: {
  email: string;
  emailVerified: boolean;
  role?: string | null;
}): Role {
  if (user.role === "admin") return "admin";
  if (user.emailVerified && env().ADMIN_EMAILS.includes(user.email.toLowerCase())) return "admin";
  return "user";
}
