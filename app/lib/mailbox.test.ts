import { describe, expect, it } from "vitest";
import { normalizeMailbox } from "./mailbox";

describe("normalizeMailbox", () => {
  it("finds one Gmail mailbox behind case, dots, +tags and googlemail.com", () => {
    for (const address of [
      "Asha.Rao@gmail.com",
      "asharao+trial@gmail.com",
      "a.s.h.a.r.a.o+x+y@GoogleMail.com",
      " asharao@gmail.com ",
    ])
      expect(normalizeMailbox(address)).toBe("asharao@gmail.com");
  });

  it("drops +tags where the provider ignores them, keeps dots outside Gmail", () => {
    expect(normalizeMailbox("first.last+shop@outlook.com")).toBe("first.last@outlook.com");
    expect(normalizeMailbox("first.last+shop@icloud.com")).toBe("first.last@icloud.com");
  });

  it("keeps a + that another domain may treat as part of the name", () => {
    expect(normalizeMailbox("team+billing@example.co.in")).toBe("team+billing@example.co.in");
  });
});
