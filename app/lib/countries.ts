/**
 * Countries, for a buyer's billing address (issue 56): ISO 3166-1 alpha-2 codes, named by the
 * platform's own CLDR data (`Intl.DisplayNames`, in Node and every browser), so no name list is
 * kept here. India decides a checkout in rupees with GST; every other country is a buyer abroad.
 */

/** Every officially assigned ISO 3166-1 alpha-2 code (249). */
const CODES =
  `AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ
BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ
EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY
HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA
LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY
MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS
RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM
TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW`.split(/\s+/);

export const INDIA = "IN";

/**
 * The euro area in 2026 (Bulgaria joined on 1 January 2026): a visitor whose browser names one
 * of these is first shown euros where euros are sold.
 */
export const EURO_AREA: ReadonlySet<string> = new Set(
  "AT BE BG CY DE EE ES FI FR GR HR IE IT LT LU LV MT NL PT SI SK".split(" "),
);

const CODE_SET: ReadonlySet<string> = new Set(CODES);
const names = new Intl.DisplayNames(["en"], { type: "region", fallback: "code" });

export function isCountryCode(value: unknown): value is string {
  return typeof value === "string" && CODE_SET.has(value);
}

/** "Germany" for "DE"; the code itself for one the platform cannot name. */
export function countryName(code: string): string {
  return names.of(code) ?? code;
}

/** The countries a buyer abroad chooses from, by name: every country but India. */
export const COUNTRIES_ABROAD: readonly { code: string; name: string }[] = CODES.filter(
  (code) => code !== INDIA,
)
  .map((code) => ({ code, name: countryName(code) }))
  .sort((a, b) => a.name.localeCompare(b.name, "en"));
