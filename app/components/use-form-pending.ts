import { useFormAction, useNavigation } from "react-router";

/** What tells one form's submission from the others a page may send. */
export interface FormIdentity {
  /** Its method, as on the `<Form>`: "post" unless said. */
  method?: "get" | "post";
  /** Its `intent` field: the value it sends, or any of these when it can send several. */
  intent?: string | readonly string[];
  /** Other fields that set it apart from forms with the same intent (each row's id in a list). */
  fields?: Readonly<Record<string, string>>;
}

/** A form of this route (or of `action`, as given to its `<Form>`). */
export interface SubmittedForm extends FormIdentity {
  action?: string;
}

/** A `useFetcher` form: its own fetcher says whether it runs. */
export interface FetcherForm {
  fetcher: { state: "idle" | "loading" | "submitting" };
}

/**
 * Whether this form's own submission is under way: while its action runs and while the pages load
 * after it (a redirect included). The router has one navigation for the whole page, so its state
 * alone would also be "busy" while a link is followed or another form is sent; a submission is
 * this form's only when its method, action, intent and `fields` are this form's.
 */
export function useFormPending(form: SubmittedForm | FetcherForm = {}): boolean {
  const pending = usePendingForms("action" in form ? form.action : undefined);
  return "fetcher" in form ? form.fetcher.state !== "idle" : pending(form);
}

/**
 * For a list of forms (a row each, so not one hook per form): a test of whether a form of this
 * route (or of `action`) with that identity is the one being sent.
 */
export function usePendingForms(action?: string): (form?: FormIdentity) => boolean {
  const navigation = useNavigation();
  const target = useFormAction(action);
  return (form = {}) => isSubmissionOf(navigation, target, form);
}

function isSubmissionOf(
  navigation: ReturnType<typeof useNavigation>,
  action: string,
  form: FormIdentity,
): boolean {
  // A link's navigation has no form method nor data.
  if (navigation.state === "idle" || !navigation.formData) return false;
  if (navigation.formMethod?.toLowerCase() !== (form.method ?? "post")) return false;
  if (navigation.formAction !== action) return false;
  const sent = navigation.formData;
  if (form.intent !== undefined) {
    const intents: readonly string[] =
      typeof form.intent === "string" ? [form.intent] : form.intent;
    const intent = sent.get("intent");
    if (typeof intent !== "string" || !intents.includes(intent)) return false;
  }
  return Object.entries(form.fields ?? {}).every(([name, value]) => sent.get(name) === value);
}
