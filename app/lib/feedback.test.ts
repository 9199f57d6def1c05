import { describe, expect, it } from "vitest";
import { feedbackSchema } from "~/lib/feedback";

describe("feedbackSchema", () => {
  it("accepts a full message and normalises it", () => {
    const result = feedbackSchema.parse({
      email: " Maya@Example.com ",
      category: "bug",
      message: "  The serial monitor drops bytes at 921600 baud.  ",
      rating: "4",
      appVersion: "2.1.0",
      os: "",
    });
    expect(result).toEqual({
      email: "maya@example.com",
      category: "bug",
      message: "The serial monitor drops bytes at 921600 baud.",
      rating: 4,
      appVersion: "2.1.0",
      os: null,
    });
  });

  it("treats an empty rating as none", () => {
    expect(
      feedbackSchema.parse({
        email: "a@b.co",
        category: "other",
        message: "0123456789",
        rating: "",
      }).rating,
    ).toBeNull();
  });

  it("reports every field error at once", () => {
    const result = feedbackSchema.safeParse({
      email: "nope",
      category: "spam",
      message: "short",
      rating: "9",
    });
    expect(result.success).toBe(false);
    const fields = new Set(result.error?.issues.map((issue) => issue.path[0]));
    expect(fields).toEqual(new Set(["email", "category", "message", "rating"]));
  });

  it("limits the message to 5000 characters", () => {
    const result = feedbackSchema.safeParse({
      email: "a@b.co",
      category: "bug",
      message: "x".repeat(5001),
    });
    expect(result.error?.issues[0]?.message).toBe("Keep it under 5000 characters.");
  });
});
