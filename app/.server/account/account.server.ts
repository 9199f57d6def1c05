import { eq } from "drizzle-orm";
import { auth } from "../auth/auth.server";
import { db } from "../db";
import { user as users } from "../db/schema";

export type Outcome = { ok: true; message: string } | { ok: false; message: string };

/** Better Auth's APIError carries the user-facing text in body.message. */
function messageOf(error: unknown): string {
  if (typeof error === "object" && error !== null) {
    const body = (error as { body?: { message?: unknown } }).body;
    if (body && typeof body.message === "string") return body.message;
    if (error instanceof Error) return error.message;
  }
  return "Something went wrong. Please try again.";
}

export async function isTwoFactorEnabled(userId: string): Promise<boolean> {
  const [row] = await db()
    .select({ on: users.twoFactorEnabled })
    .from(users)
    .where(eq(users.id, userId));
  return Boolean(row?.on);
}

export async function updateName(request: Request, name: string): Promise<Outcome> {
  try {
    await auth().api.updateUser({ headers: request.headers, body: { name } });
    return { ok: true, message: "Your name was saved." };
  } catch (error) {
    return { ok: false, message: messageOf(error) };
  }
}
