import { describe, expect, it } from "vitest";
import {
  needsStepUp,
  RECENT_SIGN_IN_MS,
  type SessionOrigin,
  signedInRecently,
  STEP_UP_WINDOW_MS,
  tooManyAttemptsMessage,
} from "./sensitive-rules";

const now = new Date("2026-11-23T10:00:00Z");
const ago = (ms: number) => new Date(now.getTime() - ms);
const web: SessionOrigin = { createdAt: ago(60_000), desktopDeviceId: null, stepUpAt: null };
const desktop: SessionOrigin = { ...web, desktopDeviceId: "device-1" };

describe("needsStepUp", () => {
  it("never asks a browser that signed in with its password", () => {
    expect(needsStepUp(web, now)).toBe(false);
    expect(needsStepUp({ ...web, createdAt: ago(30 * 86_400_000) }, now)).toBe(false);
  });

  it("asks a desktop-opened browser until it confirms, and again after ten minutes", () => {
    expect(needsStepUp(desktop, now)).toBe(true);
    expect(needsStepUp({ ...desktop, stepUpAt: ago(0) }, now)).toBe(false);
    expect(needsStepUp({ ...desktop, stepUpAt: ago(STEP_UP_WINDOW_MS) }, now)).toBe(false);
    expect(needsStepUp({ ...desktop, stepUpAt: ago(STEP_UP_WINDOW_MS + 1) }, now)).toBe(true);
  });

  it("does not trust a confirmation dated in the future", () => {
    expect(needsStepUp({ ...desktop, stepUpAt: new Date(now.getTime() + 60_000) }, now)).toBe(true);
  });
});

describe("signedInRecently", () => {
  it("accepts a sign-in of the last ten minutes", () => {
    expect(signedInRecently({ ...web, createdAt: ago(0) }, now)).toBe(true);
    expect(signedInRecently({ ...web, createdAt: ago(RECENT_SIGN_IN_MS) }, now)).toBe(true);
    expect(signedInRecently({ ...web, createdAt: ago(RECENT_SIGN_IN_MS + 1) }, now)).toBe(false);
  });

  it("never counts a browser opened from the desktop app, however new", () => {
    expect(signedInRecently({ ...desktop, createdAt: ago(0) }, now)).toBe(false);
    expect(signedInRecently({ ...desktop, createdAt: ago(0), stepUpAt: ago(0) }, now)).toBe(false);
  });
});

describe("tooManyAttemptsMessage", () => {
  it("rounds the wait up to whole minutes, at least one", () => {
    expect(tooManyAttemptsMessage(900)).toBe("Too many attempts. Try again in 15 minutes.");
    expect(tooManyAttemptsMessage(61)).toBe("Too many attempts. Try again in 2 minutes.");
    expect(tooManyAttemptsMessage(60)).toBe("Too many attempts. Try again in 1 minute.");
    expect(tooManyAttemptsMessage(1)).toBe("Too many attempts. Try again in 1 minute.");
    expect(tooManyAttemptsMessage(0)).toBe("Too many attempts. Try again in 1 minute.");
  });
});
