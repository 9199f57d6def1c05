import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
} from "react";
import { http } from "./http";

export interface AuthUser {
  id: string;
  email: string;
  name: string;
  role: "user" | "admin";
}

export type AuthState =
  | { status: "loading"; user: null }
  | { status: "signed-in"; user: AuthUser }
  | { status: "signed-out"; user: null };

interface AuthContextValue {
  state: AuthState;
  /** Asks the server again, e.g. after signing in or out. */
  refresh(): Promise<void>;
}

const AuthContext = createContext<AuthContextValue>({
  state: { status: "loading", user: null },
  refresh: async () => {},
});

async function fetchSession(): Promise<AuthState> {
  const response = await http("/api/session", {
    credentials: "same-origin",
    headers: { Accept: "application/json" },
    cache: "no-store",
  });
  if (!response.ok) throw new Error(`session check failed: ${response.status}`);
  const body = (await response.json()) as { user: AuthUser | null };
  return body.user
    ? { status: "signed-in", user: body.user }
    : { status: "signed-out", user: null };
}

/**
 * The navbar's view of who is signed in. Public HTML is the same for everyone, so the state starts
 * as "loading" (neither "Log in" nor "Account" shown) and resolves with one check in the browser.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<AuthState>({ status: "loading", user: null });

  const refresh = useCallback(() => fetchSession().then(setState), []);

  useEffect(() => {
    let active = true;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const check = (attempt: number) => {
      fetchSession().then(
        (next) => {
          if (active) setState(next);
        },
        () => {
          if (!active) return;
          // Never stuck in "loading": show "Log in" now, and ask again in the background.
          setState((current) =>
            current.status === "loading" ? { status: "signed-out", user: null } : current,
          );
          retry = setTimeout(() => check(attempt + 1), Math.min(30_000, 2_000 * 2 ** attempt));
        },
      );
    };
    check(0);
    return () => {
      active = false;
      clearTimeout(retry);
    };
  }, []);

  const value = useMemo(() => ({ state, refresh }), [state, refresh]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  return useContext(AuthContext);
}
