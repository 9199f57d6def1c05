import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  BILLING_STATES,
  GST_STATES,
  GSTIN_EXAMPLE,
  gstinCheckCharacter,
  gstinMatchesState,
  isGstStateCode,
  stateByCode,
  stateByName,
  validateGstin,
} from "./gst";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DIGITS = "0123456789";

// Written out independently of the table under test.
const ALL_CODES = [
  ...Array.from({ length: 38 }, (_, index) => String(index + 1).padStart(2, "0")),
  "97",
];

const EMPTY = "Enter a GSTIN.";
const LENGTH = "A GSTIN has 15 characters.";
const FORMAT = "That is not a GSTIN: it looks like 29ABCDE1234F1ZW.";
const STATE = "A GSTIN starts with a state code from 01 to 38 (or 97).";
const CHECK = "The last character of that GSTIN does not match: check it for a typo.";

const KNOWN = ["27AAPFU0939F1ZV", "18AABCU9603R1ZM", "29AAPCP1234F1ZC"];

function errorOf(input: string): string | undefined {
  const result = validateGstin(input);
  return result.ok ? undefined : result.error;
}

const charsFrom = (set: string, length: number) =>
  fc.string({ unit: fc.constantFrom(...set), minLength: length, maxLength: length });

/** The first 14 characters of a well-formed GSTIN: state code, PAN, entity number, "Z". */
const prefix14 = fc
  .tuple(
    fc.constantFrom(...ALL_CODES),
    charsFrom(LETTERS, 5),
    charsFrom(DIGITS, 4),
    charsFrom(LETTERS, 1),
    charsFrom("123456789" + LETTERS, 1),
  )
  .map(
    ([code, letters, digits, letter, entity]) => `${code}${letters}${digits}${letter}${entity}Z`,
  );

const validGstin = prefix14.map((first14) => first14 + gstinCheckCharacter(first14));

describe("GST state table", () => {
  it("has every code from 01 to 38 and 97 exactly once", () => {
    const codes = GST_STATES.map((state) => state.code);
    expect([...codes].sort()).toEqual(ALL_CODES);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of ALL_CODES) expect(isGstStateCode(code)).toBe(true);
    for (const code of ["00", "39", "96", "98", "1", "001", ""]) {
      expect(isGstStateCode(code)).toBe(false);
    }
  });

  it("marks 36 entries current: 28 states and 8 union territories", () => {
    const current = GST_STATES.filter((state) => state.current);
    expect(current).toHaveLength(36);
    expect(current.filter((state) => state.kind === "state")).toHaveLength(28);
    expect(current.filter((state) => state.kind === "union-territory")).toHaveLength(8);
    expect(
      GST_STATES.filter((state) => !state.current)
        .map((state) => state.code)
        .sort(),
    ).toEqual(["25", "28", "97"]);
    expect(stateByCode("97")?.kind).toBe("other");
  });

  it("offers the current entries sorted by name for billing", () => {
    expect(BILLING_STATES).toHaveLength(36);
    expect(BILLING_STATES.every((state) => state.current)).toBe(true);
    const names = BILLING_STATES.map((state) => state.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, "en")));
    expect(new Set(names).size).toBe(36);
  });

  it("looks states up by code and by name", () => {
    expect(stateByCode("29")?.name).toBe("Karnataka");
    expect(stateByCode("26")?.name).toBe("Dadra and Nagar Haveli and Daman and Diu");
    expect(stateByCode("99")).toBeUndefined();
    expect(stateByName("karnataka")?.code).toBe("29");
    expect(stateByName("TAMIL NADU")?.code).toBe("33");
    expect(stateByName("Andhra Pradesh")?.code).toBe("37");
    expect(stateByName("Karnatak")).toBeUndefined();
  });
});

describe("validateGstin", () => {
  it("accepts the example the forms show (issue 34: the old one failed its own check)", () => {
    expect(GSTIN_EXAMPLE).toBe("29ABCDE1234F1ZW");
    expect(validateGstin(GSTIN_EXAMPLE)).toMatchObject({ ok: true, stateCode: "29" });
  });

  it("accepts known GSTINs and returns the state code and PAN", () => {
    for (const gstin of KNOWN) {
      expect(gstinCheckCharacter(gstin.slice(0, 14))).toBe(gstin.charAt(14));
      expect(validateGstin(gstin)).toEqual({
        ok: true,
        gstin,
        stateCode: gstin.slice(0, 2),
        pan: gstin.slice(2, 12),
      });
    }
  });

  it("trims and upper-cases the input", () => {
    expect(validateGstin("  27aapfu0939f1zv \n")).toEqual({
      ok: true,
      gstin: "27AAPFU0939F1ZV",
      stateCode: "27",
      pan: "AAPFU0939F",
    });
  });

  it("explains each kind of bad input", () => {
    expect(errorOf("")).toBe(EMPTY);
    expect(errorOf("   ")).toBe(EMPTY);
    expect(errorOf("27AAPFU0939F1Z")).toBe(LENGTH);
    expect(errorOf("27AAPFU0939F1ZVX")).toBe(LENGTH);
    expect(errorOf("27AAPFU0939F1XV")).toBe(FORMAT); // 14th character must be Z
    expect(errorOf("27AAPFU0939F0ZV")).toBe(FORMAT); // entity number 0
    expect(errorOf("2AAAPFU0939F1ZV")).toBe(FORMAT);
    expect(errorOf("27AAPF10939F1ZV")).toBe(FORMAT);
    expect(errorOf("27AAPFU0939F1Z-")).toBe(FORMAT);
    expect(errorOf("00AAPFU0939F1ZV")).toBe(STATE);
    expect(errorOf("39AAPFU0939F1ZV")).toBe(STATE);
    expect(errorOf("96AAPFU0939F1ZV")).toBe(STATE);
    expect(errorOf("27AAPFU0939F1ZW")).toBe(CHECK);
    expect(errorOf("29AAPCP1234F1ZD")).toBe(CHECK);
  });

  it("gives a valid GSTIN for any well-formed prefix and its check character", () => {
    fc.assert(
      fc.property(prefix14, (first14) => {
        const check = gstinCheckCharacter(first14);
        expect(ALPHABET).toContain(check);
        const result = validateGstin(first14 + check);
        expect(result).toEqual({
          ok: true,
          gstin: first14 + check,
          stateCode: first14.slice(0, 2),
          pan: first14.slice(2, 12),
        });
        // Every other last character is caught by the check character.
        for (const other of ALPHABET) {
          if (other !== check) expect(errorOf(first14 + other)).toBe(CHECK);
        }
      }),
    );
  });

  it("detects any single-character substitution in the first 14 characters", () => {
    // Luhn mod 36: doubling is a permutation of 0..35, so one changed character always changes
    // the sum mod 36 and therefore the check character.
    const substitution = fc
      .tuple(validGstin, fc.integer({ min: 0, max: 13 }), fc.constantFrom(...ALPHABET))
      .filter(([gstin, index, replacement]) => gstin.charAt(index) !== replacement);
    fc.assert(
      fc.property(substitution, ([gstin, index, replacement]) => {
        const changed = gstin.slice(0, index) + replacement + gstin.slice(index + 1);
        expect(gstinCheckCharacter(changed.slice(0, 14))).not.toBe(gstin.charAt(14));
        // Changing the first two digits can also land outside the state codes.
        expect([FORMAT, STATE, CHECK]).toContain(errorOf(changed));
      }),
    );
  });

  it("detects swapped neighbours except 0 and Z", () => {
    // The alternating doubling is what catches transpositions; with it, only 0 <-> Z slips by.
    const swap = fc
      .tuple(validGstin, fc.integer({ min: 0, max: 12 }))
      .filter(([gstin, index]) => gstin.charAt(index) !== gstin.charAt(index + 1));
    fc.assert(
      fc.property(swap, ([gstin, index]) => {
        const a = gstin.charAt(index);
        const b = gstin.charAt(index + 1);
        const changed = gstin.slice(0, index) + b + a + gstin.slice(index + 2);
        const missed = gstinCheckCharacter(changed.slice(0, 14)) === gstin.charAt(14);
        expect(missed).toBe([a, b].sort().join("") === "0Z");
      }),
    );
  });

  it("detects every single-character substitution in the known GSTINs", () => {
    for (const gstin of KNOWN) {
      for (let index = 0; index < 14; index += 1) {
        for (const replacement of ALPHABET) {
          if (replacement === gstin.charAt(index)) continue;
          const changed = gstin.slice(0, index) + replacement + gstin.slice(index + 1);
          expect(validateGstin(changed).ok).toBe(false);
        }
      }
    }
  });
});

describe("gstinMatchesState", () => {
  it("matches the state code in the first two characters", () => {
    expect(gstinMatchesState("27AAPFU0939F1ZV", "27")).toBe(true);
    expect(gstinMatchesState("27AAPFU0939F1ZV", "29")).toBe(false);
    expect(gstinMatchesState("29AAPCP1234F1ZC", "29")).toBe(true);
  });

  it("treats merged and divided codes as the same territory", () => {
    for (const [a, b] of [
      ["25", "26"],
      ["28", "37"],
    ] as const) {
      expect(gstinMatchesState(`${a}AAPFU0939F1ZV`, b)).toBe(true);
      expect(gstinMatchesState(`${b}AAPFU0939F1ZV`, a)).toBe(true);
    }
    expect(gstinMatchesState("25AAPFU0939F1ZV", "28")).toBe(false);
    expect(gstinMatchesState("26AAPFU0939F1ZV", "37")).toBe(false);
    expect(gstinMatchesState("36AAPFU0939F1ZV", "37")).toBe(false);
  });
});
