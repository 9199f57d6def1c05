import { type z } from "zod";
import { type FunctionStatus } from "~/lib/functions-errors";
import type { Session } from "../auth/session";
import { desktopLoginSchema, issueHandoffToken } from "../desktop/handoff.server";
import type { Logger } from "../logger";

export class FunctionError extends Error {
  override name = "FunctionError";
  constructor(
    readonly status: FunctionStatus,
    message: string,
  ) {
    super(message);
  }
}

export interface FunctionContext {
  session: Session | null;
  log: Logger;
}

interface CallableDefinition<S extends z.ZodType, R> {
  /** Refuse anonymous callers before reading the body (spec: 401 whatever was sent). */
  requiresUser: boolean;
  input: S;
  handler(data: z.output<S>, context: FunctionContext): Promise<R>;
}

function defineFunction<S extends z.ZodType, R>(definition: CallableDefinition<S, R>) {
  return definition;
}

function requireUser(context: FunctionContext): Session {
  if (!context.session) throw new FunctionError("UNAUTHENTICATED", "Not authenticated");
  return context.session;
}

/**
 * Every callable function, by name, with its input schema. `POST /api/functions/:name` runs them;
 * the browser calls them with `callFunction(name, data)`.
 */
export const callableFunctions = {
  /** Web → desktop handoff: a single-use token for the app, bound to its PKCE challenge. */
  generateAuthRedirectToken: defineFunction({
    requiresUser: true,
    input: desktopLoginSchema.omit({ client: true }),
    async handler(data, context) {
      const session = requireUser(context);
      const token = await issueHandoffToken(session.user.id, { ...data, client: "desktop" });
      return { token };
    },
  }),
} as const;

export type CallableName = keyof typeof callableFunctions;

export function isCallableName(name: string): name is CallableName {
  return Object.hasOwn(callableFunctions, name);
}
