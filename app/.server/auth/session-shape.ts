/**
 * What a signed-in session is, as every guard and the audit log see it: a leaf, so the modules
 * that only name it (the audit log) do not import the session reader and, through it, the whole
 * of Better Auth's configuration (that closed an import circle through the application).
 */
import type { Role } from "./role";

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: Role;
  emailVerified: boolean;
}

export interface Session {
  id: string;
  user: SessionUser;
}
