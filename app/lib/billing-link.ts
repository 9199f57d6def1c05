/** How long a billing mail's signed link works (issue 59, point 2): shared by mails and pages. */
export const BILLING_LINK_DAYS = 10;
