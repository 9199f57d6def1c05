// Issue 33, point 10: the admin table's scrolling region never takes the name of the section
// around it, even when the caption repeats the section's title (axe's landmark-unique).
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AdminSection, AdminTable } from "./AdminUi";

describe("AdminTable", () => {
  it("names its region apart from a section of the same title", () => {
    const html = renderToString(
      <AdminSection id="subscriptions" title="Subscriptions">
        <AdminTable
          caption="Subscriptions"
          columns={["Customer", { label: "Paid", alignRight: true }]}
        >
          <tr>
            <th scope="row">asha@example.com</th>
            <td>₹699</td>
          </tr>
        </AdminTable>
      </AdminSection>,
    );
    expect(html).toContain('aria-labelledby="subscriptions"');
    expect(html).toContain('role="region" aria-label="Table: Subscriptions"');
    expect(html).toContain('<caption class="sr-only">Subscriptions</caption>');
    // The number column's header is right-aligned like its cells.
    expect(html).toMatch(/<th scope="col" class="[^"]*text-right[^"]*">Paid<\/th>/);
  });
});
