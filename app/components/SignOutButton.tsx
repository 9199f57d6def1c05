import { useState } from "react";
import { useNavigate } from "react-router";
import { signOut } from "~/lib/auth-client";
import { useAuth } from "~/lib/auth-state";

/**
 * A form that posts to /auth/sign-out, so signing out works before the page's scripts have started
 * (decision record 0026) and without JavaScript; once React runs, it signs out in place, shows a
 * failure beside the button, and updates the navbar before leaving.
 */
export function SignOutButton({ className = "btn-secondary" }: { className?: string }) {
  const navigate = useNavigate();
  const { refresh } = useAuth();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  return (
    <form
      method="post"
      action="/auth/sign-out"
      onSubmit={async (event) => {
        event.preventDefault();
        setPending(true);
        const result = await signOut();
        setPending(false);
        if (!result.ok) {
          setError(result.message);
          return;
        }
        await refresh();
        await navigate("/", { replace: true });
      }}
    >
      <button type="submit" className={className} disabled={pending}>
        {pending ? "Signing out…" : "Sign out"}
      </button>
      {error ? (
        <p role="alert" className="mt-2 text-sm text-red-300">
          {error}
        </p>
      ) : null}
    </form>
  );
}
