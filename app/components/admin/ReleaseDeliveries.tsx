/**
 * How a release's files reached people (issue 58, point 6): per platform, whole downloads and
 * differential ones (only the changed blocks), with the bytes sent against what whole files would
 * have cost.
 */
import { AdminSection, AdminTable, TD } from "~/components/admin/AdminUi";
import { formatBytes } from "~/lib/format";

export interface DeliveryRow {
  platform: string;
  kind: "full" | "differential" | "delta";
  count: number;
  bytesServed: number;
  bytesFull: number;
}

const KIND_WORDS = {
  full: "Whole file",
  differential: "Differential (changed blocks)",
  delta: "Delta package",
} as const satisfies Record<DeliveryRow["kind"], string>;

export function ReleaseDeliveries({ rows }: { rows: DeliveryRow[] }) {
  const served = rows.reduce((total, row) => total + row.bytesServed, 0);
  const full = rows.reduce((total, row) => total + row.bytesFull, 0);
  return (
    <AdminSection
      id="deliveries"
      title="Downloads"
      lead={
        rows.length === 0
          ? "No file of this release has been downloaded yet."
          : `${formatBytes(served)} sent, against ${formatBytes(full)} had every download been the whole file${
              full > served ? `: ${Math.round(((full - served) / full) * 100)}% saved.` : "."
            } A download is counted when it starts; one resumed from the middle is not counted again.`
      }
    >
      {rows.length > 0 ? (
        <AdminTable
          caption="Downloads of this release by platform and kind"
          columns={["Platform", "Kind", "Downloads", "Sent", "As whole files"]}
        >
          {rows.map((row) => (
            <tr key={`${row.platform}-${row.kind}`} className="border-b border-slate-800/60">
              <td className={TD}>{row.platform}</td>
              <td className={TD}>{KIND_WORDS[row.kind]}</td>
              <td className={TD} data-testid={`deliveries-${row.platform}-${row.kind}`}>
                {row.count}
              </td>
              <td className={`${TD} whitespace-nowrap`}>{formatBytes(row.bytesServed)}</td>
              <td className={`${TD} whitespace-nowrap`}>{formatBytes(row.bytesFull)}</td>
            </tr>
          ))}
        </AdminTable>
      ) : null}
    </AdminSection>
  );
}
