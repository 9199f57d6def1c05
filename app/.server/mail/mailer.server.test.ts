// Issue 35, point 5: with the default file mail, each mail is also kept as plain text whose links
// are whole (the .eml's quoted-printable breaks them across lines), and links are printed in the
// log line only while developing.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { linksIn, plainCopy, sendMail } from "./mailer.server";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pinout-mailer-"));
vi.stubEnv("DATA_DIR", dataDir);
vi.stubEnv("SMTP_URL", "");

afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  vi.unstubAllEnvs();
});

const LINK = `http://localhost:3000/api/auth/verify-email?token=${"eyJhbGciOiJIUzI1NiJ9".repeat(8)}&callbackURL=%2Faccount`;

describe("the file outbox", () => {
  it("keeps a plain copy beside each .eml with every link whole", async () => {
    await sendMail({
      to: "asha@example.com",
      subject: "Confirm your email for Pinout",
      text: `Hello Asha,\n\nConfirm your address: ${LINK}\n\nThanks`,
      html: `<p>Confirm your address: <a href="${LINK}">confirm</a></p>`,
    });
    const files = fs.readdirSync(path.join(dataDir, "mail")).sort();
    expect(files).toHaveLength(2);
    const [eml, txt] = files;
    expect(eml).toMatch(/\.eml$/);
    expect(txt).toBe(eml!.replace(/\.eml$/, ".txt"));
    const plain = fs.readFileSync(path.join(dataDir, "mail", txt!), "utf8");
    expect(plain).toContain("To: asha@example.com\nSubject: Confirm your email for Pinout\n");
    // The link on one line, as it was sent; the .eml's own copy is wrapped.
    expect(linksIn(plain)).toEqual([LINK]);
    expect(fs.readFileSync(path.join(dataDir, "mail", eml!), "utf8")).not.toContain(LINK);
  });

  it("finds links up to the first space or closing mark", () => {
    expect(linksIn("Open (https://a.example/x?y=1) or http://b.example/z.")).toEqual([
      "https://a.example/x?y=1",
      "http://b.example/z.",
    ]);
    expect(plainCopy({ to: "a@b.c", subject: "S", text: "T" })).toBe(
      "To: a@b.c\nSubject: S\n\nT\n",
    );
  });
});
