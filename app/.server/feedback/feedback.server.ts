import type { FeedbackInput } from "~/lib/feedback";
import { type Database, db as defaultDb } from "../db";
import { feedback } from "../db/schema";

export async function saveFeedback(
  input: FeedbackInput & { userId: string | null },
  database: Database = defaultDb(),
): Promise<string> {
  const [row] = await database
    .insert(feedback)
    .values({
      email: input.email,
      category: input.category,
      message: input.message,
      rating: input.rating,
      appVersion: input.appVersion,
      os: input.os,
      userId: input.userId,
    })
    .returning({ id: feedback.id });
  if (!row) throw new Error("feedback was not stored");
  return row.id;
}
