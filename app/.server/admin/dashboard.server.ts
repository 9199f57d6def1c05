import { count, desc, eq, gte } from "drizzle-orm";
import { type Database, db as defaultDb } from "../db";
import { analyticsEvents, feedback } from "../db/schema";
import { latestRelease } from "../releases/queries.server";
import { activeDevicesTotal, type UserCounts, userCounts } from "./users.server";

export const ANALYTICS_DAYS = 7;
export const TOP_EVENTS = 10;
export const NEWEST_FEEDBACK = 10;

import { type FeedbackStatus, feedbackStatusSchema } from "~/lib/feedback";

export { feedbackStatusSchema, type FeedbackStatus };

export interface DownloadsOfRelease {
  version: string;
  platforms: { platform: string; downloads: number }[];
}

/** Downloads per platform of the newest stable release (architectures of a platform added up). */
export function downloadsPerPlatform(
  assets: readonly { platform: string; downloadCount: number }[],
): { platform: string; downloads: number }[] {
  const totals = new Map<string, number>();
  for (const asset of assets)
    totals.set(asset.platform, (totals.get(asset.platform) ?? 0) + asset.downloadCount);
  return [...totals]
    .map(([platform, downloads]) => ({ platform, downloads }))
    .sort((a, b) => a.platform.localeCompare(b.platform));
}

export interface DashboardStats {
  users: UserCounts;
  activeDevices: number;
  newFeedback: number;
  latestRelease: DownloadsOfRelease | null;
  topEvents: { name: string; count: number }[];
}

export async function dashboardStats(
  now: Date = new Date(),
  database: Database = defaultDb(),
): Promise<DashboardStats> {
  const since = new Date(now.getTime() - ANALYTICS_DAYS * 24 * 60 * 60 * 1000);
  const events = count();
  const [users, activeDevices, [newFeedback], release, topEvents] = await Promise.all([
    userCounts(database),
    activeDevicesTotal(database),
    database.select({ value: count() }).from(feedback).where(eq(feedback.status, "new")),
    latestRelease("stable", database),
    database
      .select({ name: analyticsEvents.name, count: events })
      .from(analyticsEvents)
      .where(gte(analyticsEvents.occurredAt, since))
      .groupBy(analyticsEvents.name)
      .orderBy(desc(events), analyticsEvents.name)
      .limit(TOP_EVENTS),
  ]);
  return {
    users,
    activeDevices,
    newFeedback: newFeedback?.value ?? 0,
    latestRelease: release
      ? { version: release.version, platforms: downloadsPerPlatform(release.assets) }
      : null,
    topEvents,
  };
}

export interface FeedbackItem {
  id: string;
  email: string;
  category: string;
  rating: number | null;
  message: string;
  status: FeedbackStatus;
  createdAt: string;
}

export async function newestFeedback(
  limit: number = NEWEST_FEEDBACK,
  database: Database = defaultDb(),
): Promise<FeedbackItem[]> {
  const rows = await database
    .select({
      id: feedback.id,
      email: feedback.email,
      category: feedback.category,
      rating: feedback.rating,
      message: feedback.message,
      status: feedback.status,
      createdAt: feedback.createdAt,
    })
    .from(feedback)
    .orderBy(desc(feedback.createdAt), feedback.id)
    .limit(limit);
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

/** Marks a message read or closed (or new again); false when the message does not exist. */
export async function setFeedbackStatus(
  id: string,
  status: FeedbackStatus,
  database: Database = defaultDb(),
): Promise<boolean> {
  const rows = await database
    .update(feedback)
    .set({ status })
    .where(eq(feedback.id, id))
    .returning({ id: feedback.id });
  return rows.length > 0;
}
