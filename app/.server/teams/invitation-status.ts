/**
 * An invitation's status as Better Auth's organization plugin stores it. Its "pending" is not a
 * subscription's (app/lib/subscription-state.ts): named here so the two never read alike, and so
 * the lint rule against subscription-status literals has nothing to confuse.
 */
export const INVITATION_WAITING = "pending" as const;
