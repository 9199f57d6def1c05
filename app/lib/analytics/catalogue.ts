import { z } from "zod";

/**
 * Every analytics event and its fields (spec section 3), shared by the browser client and the
 * collector (`POST /api/events`). Defaults from the spec are applied by the schemas.
 */
const text = (max = 500) => z.string().trim().min(1).max(max);
const money = z.number().finite().nonnegative();

/**
 * Events only the server records, never accepted from a browser, and no visit to the site:
 * feature uses come from the desktop app's authenticated usage reports, a trial's end from its job.
 */
export const SERVER_RECORDED_EVENTS = ["feature_use", "trial_end"] as const;

export const eventSchemas = {
  page_view: z
    .object({ page_title: text(300), page_location: text(2000), page_path: text(1000) })
    .strict(),
  purchase: z
    .object({
      currency: z.literal("INR").default("INR"),
      value: money,
      transaction_id: text(200),
      items: z
        .array(
          z
            .object({
              item_id: text(100),
              item_name: text(200),
              price: money,
              quantity: z.number().int().positive().optional(),
            })
            .strict(),
        )
        .max(20),
    })
    .strict(),
  begin_checkout: z
    .object({
      currency: z.literal("INR").default("INR"),
      value: money.optional(),
      plan_name: text(100).optional(),
    })
    .strict(),
  add_to_cart: z
    .object({ item_id: text(100), item_name: text(200), item_category: text(100), price: money })
    .strict(),
  subscription_start: z.object({ plan_name: text(100), plan_price: money }).strict(),
  subscription_cancel: z.object({ plan_name: text(100) }).strict(),
  // A free Pro trial started from the account page (issue 36, point 10).
  trial_start: z
    .object({ plan_name: text(100), trial_days: z.number().int().min(1).max(90) })
    .strict(),
  // A free trial ended (its days, extensions included, and whether a plan was bought): stored by
  // the server at the end, for the browser that started it with consent; never sent by a browser.
  trial_end: z
    .object({
      plan_name: text(100),
      trial_days: z.number().int().min(1).max(365),
      converted: z.boolean(),
    })
    .strict(),
  // A coupon accepted at checkout (issue 36, point 10): the code, the plan, the discount in rupees
  // on the first payment. Sent once per code and plan by the checkout page, with consent.
  coupon_apply: z.object({ coupon: text(32), plan_name: text(100), discount: money }).strict(),
  // A visit that arrived through a customer's referral link (/r/CODE then pricing): the code.
  referral_visit: z.object({ referral_code: z.string().regex(/^[0-9A-Z]{8}$/) }).strict(),
  subscription_upgrade: z
    .object({ from_plan: text(100), to_plan: text(100), new_price: money })
    .strict(),
  app_download: z
    .object({ platform: z.enum(["mac", "windows"]), file_extension: z.enum(["dmg", "exe"]) })
    .strict(),
  cta_click: z.object({ cta_name: text(100), cta_location: text(100) }).strict(),
  // Stored by the server from the desktop app's usage reports, never sent by a browser; `count`
  // is how many uses the report's event stands for (issue 34: the cockpit counted reports).
  feature_use: z
    .object({ feature_name: text(100), count: z.number().int().min(1).max(1_000_000).optional() })
    .strict(),
  video_start: z.object({ video_title: text(200) }).strict(),
  video_complete: z.object({ video_title: text(200) }).strict(),
  share: z.object({ method: text(50), content_type: text(50), item_id: text(200) }).strict(),
  form_start: z.object({ form_name: text(100) }).strict(),
  form_submit: z.object({ form_name: text(100), success: z.boolean() }).strict(),
  search: z
    .object({ search_term: z.string().max(200), results_count: z.number().int().nonnegative() })
    .strict(),
  navigation: z
    .object({
      from_page: text(1000),
      to_page: text(1000),
      method: z.enum(["link", "back_forward", "redirect", "form"]),
    })
    .strict(),
  exception: z
    .object({
      error_type: text(100),
      description: text(500),
      location: text(1000),
      fatal: z.boolean().default(false),
    })
    .strict(),
  view_pricing: z.object({ billing_cycle: z.enum(["monthly", "yearly"]).optional() }).strict(),
  plan_select: z
    .object({
      plan_name: text(100),
      plan_price: money,
      billing_cycle: z.enum(["monthly", "yearly"]),
    })
    .strict(),
  faq_click: z.object({ question: text(300), section: text(100).default("pricing") }).strict(),
  onboarding_step: z.object({ step_name: text(100), completed: z.boolean() }).strict(),
  onboarding_complete: z.object({ time_spent: z.number().nonnegative() }).strict(),
} as const;

export type EventName = keyof typeof eventSchemas;
/** What a caller passes (defaults optional). */
export type EventParams<N extends EventName> = z.input<(typeof eventSchemas)[N]>;
/** What is stored (defaults applied). */
export type StoredParams<N extends EventName> = z.output<(typeof eventSchemas)[N]>;

export const EVENT_NAMES = Object.keys(eventSchemas) as EventName[];

export function isEventName(name: string): name is EventName {
  return Object.hasOwn(eventSchemas, name);
}

export type ParsedEvent = { name: EventName; params: Record<string, unknown> };

/** Validates one event; the error names the event and the field. */
export function parseEvent(
  name: string,
  params: unknown,
): { ok: true; event: ParsedEvent } | { ok: false; error: string } {
  if (!isEventName(name)) return { ok: false, error: `unknown event "${name}"` };
  const result = eventSchemas[name].safeParse(params ?? {});
  if (!result.success) {
    const issue = result.error.issues[0];
    const field = issue?.path.join(".") || "(params)";
    return { ok: false, error: `${name}.${field}: ${issue?.message ?? "invalid"}` };
  }
  return { ok: true, event: { name, params: result.data as Record<string, unknown> } };
}
