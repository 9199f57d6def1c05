import { z } from "zod";

/** The feedback form: one schema for the page and the server action. */
export const FEEDBACK_CATEGORIES = ["bug", "feature", "billing", "other"] as const;
export type FeedbackCategory = (typeof FEEDBACK_CATEGORIES)[number];

/** How the form names each category; the admin inbox shows the same words. */
export const FEEDBACK_CATEGORY_LABELS: Record<FeedbackCategory, string> = {
  bug: "Something is broken",
  feature: "Feature request",
  billing: "Billing",
  other: "Something else",
};

export function feedbackCategoryLabel(category: string): string {
  return Object.hasOwn(FEEDBACK_CATEGORY_LABELS, category)
    ? FEEDBACK_CATEGORY_LABELS[category as FeedbackCategory]
    : category;
}

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: `Use at most ${max} characters.` })
    .transform((value) => (value === "" ? null : value))
    .nullable()
    .default(null);

/** The feedback form, checked on the server; every field's errors are reported together. */
export const feedbackSchema = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email({ error: "Enter an email address like name@example.com." })),
  category: z.enum(FEEDBACK_CATEGORIES, { error: "Choose what your message is about." }),
  message: z
    .string()
    .trim()
    .min(10, { error: "Write at least 10 characters." })
    .max(5000, { error: "Keep it under 5000 characters." }),
  rating: z
    .union([z.literal(""), z.coerce.number().int().min(1).max(5)], {
      error: "Choose a rating from 1 to 5.",
    })
    .transform((value) => (value === "" ? null : value))
    .nullable()
    .default(null),
  appVersion: optionalText(50),
  os: optionalText(100),
});

export type FeedbackInput = z.output<typeof feedbackSchema>;

/** Where a feedback message is in the operators' inbox. */
export const feedbackStatusSchema = z.enum(["new", "read", "closed"]);
export type FeedbackStatus = z.infer<typeof feedbackStatusSchema>;
