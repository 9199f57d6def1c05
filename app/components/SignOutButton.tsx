import { useState } from "react";
import { useNavigate } from "react-router";
import { signOut } from "~/lib/auth-client";
import { useAuth } from "~/lib/auth-state";

export function SignOutButton({ className = "btn-secondary" }: { className?: string }) {
  const navigate = useNavigate();
  const { refresh } = useAuth();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  return (
    <div>
      <button
        type="button"
        className={className}
        disabled={pending}
        onClick={async () => {
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
        {pending ? "Signing out…" : "Sign out"}
      </button>
      {error ? (
        <p role="alert" className="mt-2 text-sm text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}
