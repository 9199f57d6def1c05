import type { ReactNode } from "react";
import { ScrollBox } from "~/components/ScrollBox";

/** The padding of an admin page inside the admin layout's <main>. */
export function AdminPage({ children }: { children: ReactNode }) {
  return <div className="mx-auto w-full max-w-6xl space-y-6 px-4 py-8 sm:px-8">{children}</div>;
}

/** A titled panel; the heading names the region for screen readers. */
export function AdminSection({
  id,
  title,
  children,
  lead,
}: {
  id: string;
  title: string;
  children: ReactNode;
  lead?: string;
}) {
  return (
    <section aria-labelledby={id} className="rounded-xl border border-slate-800 bg-slate-900 p-6">
      <h2 id={id} className="text-lg font-semibold text-white">
        {title}
      </h2>
      {lead ? <p className="mt-1 text-sm text-slate-300">{lead}</p> : null}
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** One number of the overview: a term and its value in a <dl>. */
export function Stat({
  label,
  value,
  hint,
  display,
}: {
  label: string;
  value: number;
  hint?: string;
  /** The value as shown, when a plain number is not the right format (money). */
  display?: string;
}) {
  return (
    <div className="rounded-lg border border-slate-800 bg-slate-950 p-4">
      <dt className="text-sm text-slate-300">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold text-white tabular-nums">
        {display ?? value.toLocaleString("en-IN")}
      </dd>
      {hint ? <dd className="mt-1 text-xs text-slate-400">{hint}</dd> : null}
    </div>
  );
}

/** Table header cell classes shared by the admin tables; a table sits in a `ScrollBox`. */
export const TH = "py-2 pr-4 text-left text-sm font-medium text-slate-300";
// `text-left`: a row's header cell (<th scope="row">) is centred by browsers otherwise.
export const TD = "py-2 pr-4 text-left align-top text-sm text-slate-200";
/** A number or an amount: right-aligned in even figures, never wrapped inside ("₹1,184.76"). */
export const TD_NUM = `${TD} whitespace-nowrap text-right tabular-nums`;

type Column = string | { label: string; alignRight: true };

/** A table's header row, one header per column; "" is the (visually hidden) actions column. */
export function HeaderRow({ columns }: { columns: readonly Column[] }) {
  return (
    <thead>
      <tr className="border-b border-slate-800">
        {columns.map((column, index) => {
          const label = typeof column === "string" ? column : column.label;
          return (
            <th
              key={`${label}-${index}`}
              scope="col"
              className={typeof column === "string" ? TH : `${TH} text-right`}
            >
              {label === "" ? <span className="sr-only">Actions</span> : label}
            </th>
          );
        })}
      </tr>
    </thead>
  );
}

/** A table row's classes in the admin tables. */
export const TR = "border-b border-slate-800";

/**
 * The admin table: a caption for screen readers, one header row, in a box that scrolls sideways.
 * The box is a region named "Table: <caption>", so it never takes the name of the section around
 * it (two landmarks with one name: axe's landmark-unique), whatever the caption says.
 */
export function AdminTable({
  caption,
  columns,
  children,
  className,
}: {
  caption: string;
  columns: readonly Column[];
  children: ReactNode;
  /** Spacing around the table's box. */
  className?: string;
}) {
  return (
    <ScrollBox label={`Table: ${caption}`} className={className}>
      <table className="w-full">
        <caption className="sr-only">{caption}</caption>
        <HeaderRow columns={columns} />
        <tbody>{children}</tbody>
      </table>
    </ScrollBox>
  );
}

/** The fixed fields of an admin form (intent and the ids it acts on). */
export function HiddenFields({ values }: { values: Record<string, string> }) {
  return (
    <>
      {Object.entries(values).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
    </>
  );
}

/** The look of a filter's input or select above an admin list. */
export const FILTER_INPUT =
  "mt-1 block rounded-lg border border-slate-700 bg-slate-900 px-3 py-2 text-slate-100 focus:border-green-400 focus:outline-none";

/** One filter above an admin list: its label, then its control (whose id is `filter-{name}`). */
export function FilterField({
  name,
  label,
  className,
  children,
}: {
  name: string;
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      <label htmlFor={`filter-${name}`} className="block text-sm text-slate-200">
        {label}
      </label>
      {children}
    </div>
  );
}

/** A filter that picks one of `options` (the first is usually "Any", value ""). */
export function FilterSelect({
  name,
  label,
  defaultValue,
  options,
  className,
  selectClassName = FILTER_INPUT,
}: {
  name: string;
  label: string;
  defaultValue: string;
  options: readonly { value: string; label: string }[];
  className?: string;
  selectClassName?: string;
}) {
  return (
    <FilterField name={name} label={label} className={className}>
      <select
        id={`filter-${name}`}
        name={name}
        defaultValue={defaultValue}
        className={selectClassName}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FilterField>
  );
}

/**
 * A group of checkboxes or radio buttons with its legend: one field name (or a name per option),
 * each option's label beside its box. `inline` lays the options out in a wrapping row.
 */
export function ChoiceGroup({
  legend,
  type,
  options,
  inline = false,
}: {
  legend: string;
  type: "checkbox" | "radio";
  options: readonly { name: string; value?: string; label: string; checked: boolean }[];
  inline?: boolean;
}) {
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-200">{legend}</legend>
      <div className={inline ? "mt-2 flex flex-wrap gap-x-5 gap-y-2" : "mt-2 space-y-2"}>
        {options.map((option) => (
          <label
            key={`${option.name}:${option.value ?? ""}`}
            className="flex items-start gap-2 text-sm text-slate-200"
          >
            <input
              type={type}
              name={option.name}
              value={option.value}
              defaultChecked={option.checked}
              className="mt-1 accent-green-500"
            />
            {option.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
