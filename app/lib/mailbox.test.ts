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

describe("finding 11: Microsoft's consumer domains", () => {
  it("finding 11: a +tag on outlook.*, hotmail.*, live.* and msn.com reaches the same mailbox", () => {
    for (const [variant, mailbox] of [
      ["asha+trial2@outlook.com", "asha@outlook.com"],
      ["Asha+x@Outlook.in", "asha@outlook.in"],
      ["asha+x@outlook.co.in", "asha@outlook.co.in"],
      ["asha+x@hotmail.co.uk", "asha@hotmail.co.uk"],
      ["asha+x@hotmail.fr", "asha@hotmail.fr"],
      ["asha+x@live.in", "asha@live.in"],
      ["asha+x@live.com.au", "asha@live.com.au"],
      ["asha+x@msn.com", "asha@msn.com"],
    ] as const)
      expect(normalizeMailbox(variant), variant).toBe(mailbox);
  });

  it("finding 11: keeps the + on look-alike domains that are not Microsoft's", () => {
    for (const address of [
      "asha+x@live.example.com",
      "asha+x@outlook.example.in",
      "asha+x@mylive.com",
      "asha+x@msn.co.in",
    ])
      expect(normalizeMailbox(address), address).toBe(address);
  });
});
