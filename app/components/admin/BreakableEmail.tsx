/** An address with a hidden break opportunity after "@" and each dot: long ones wrap cleanly. */
export function BreakableEmail({ email }: { email: string }) {
  return email.split(/(?<=[@.])/).map((part, index) => (
    <span key={index}>
      {index > 0 ? <wbr /> : null}
      {part}
    </span>
  ));
}
