import type { FieldErrors } from "~/lib/auth-forms";

/** What every section of /admin-fix-subscription gets besides its own data. */
export interface SectionProps {
  customerId: string;
  /** A form is being submitted: buttons wait. */
  busy: boolean;
  errors: FieldErrors;
}
