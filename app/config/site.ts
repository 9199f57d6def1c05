/**
 * The one place for everything that names the product, the company and the plans.
 * Components read from here; nothing else spells the product name.
 * Public by design: this module ships to the browser, so it holds no secrets.
 */

import type { ForeignCurrency } from "~/lib/money";

export type PlanId = "free" | "pro-monthly" | "pro-yearly";
export type BillingCycle = "monthly" | "yearly";

export interface Plan {
  id: PlanId;
  name: string;
  /** Price per billing cycle in paise (₹1 = 100 paise); 0 for free. */
  pricePaise: number;
  /**
   * Price per billing cycle for a buyer outside India, in each foreign currency's minor unit
   * (cents): set here, never converted from rupees (issue 56, decision 0060). No GST is added: a
   * sale abroad is an export of services. Which currencies are offered is SELL_ABROAD_CURRENCIES.
   */
  pricesAbroad: Record<ForeignCurrency, number>;
  billingCycle: BillingCycle | null;
  deviceLimit: number;
  features: readonly string[];
}

export interface SiteConfig {
  product: {
    name: string;
    tagline: string;
    description: string;
    /** Custom URL scheme the desktop app registers, without "://". */
    desktopScheme: string;
    logoPath: string;
  };
  company: {
    legalName: string;
    brandName: string;
    address: {
      line1: string;
      line2: string;
      city: string;
      state: string;
      stateCode: string;
      postalCode: string;
      country: string;
    };
    gstin: string;
    /**
     * Corporate Identity Number (21 characters): the Companies Act asks for it on bill-heads, so
     * every invoice and credit note issued from now on prints it. Documents already issued stay
     * as they were.
     */
    cin: string;
    supportEmail: string;
    phone: string;
    /**
     * The Grievance Officer the Consumer Protection (E-Commerce) Rules, 2020 ask a seller to name
     * (name, designation, contact): shown on /legal/contact, in the footer and in every support
     * mail.
     */
    grievanceOfficer: { name: string; designation: string; email: string; phone: string };
  };
  social: { label: string; url: string }[];
  pricing: {
    currency: "INR";
    pricesIncludeGst: boolean;
    gstRatePercent: number;
    /**
     * Renewals of at least this much get a notice 3 days before the charge (RBI's e-mandate rules
     * ask for a pre-debit notice, and extra authentication above ₹15,000); yearly ones always get
     * one a week before.
     */
    renewalNoticeFromPaise: number;
    /**
     * The most a UPI AutoPay mandate may debit at once for a subscription (Razorpay: "₹15,000
     * when using UPI as a payment method for Subscriptions"). A cycle that costs more is paid by
     * card, and checkout says so before anything is authorised (issue 37, point 4).
     */
    upiAutopayLimitPaise: number;
  };
  /**
   * Teams' Pro seats (issue 37, point 2): the price of one seat for one cycle, GST included, by
   * volume: with at least `fromSeats` seats, every seat costs that tier's price.
   */
  teams: {
    seatPrices: Record<
      BillingCycle,
      readonly {
        fromSeats: number;
        pricePaise: number;
        /** A seat's price for a team outside India, in cents (as `Plan.pricesAbroad`). */
        pricesAbroad: Record<ForeignCurrency, number>;
      }[]
    >;
    maxSeats: number;
  };
  /** GST invoicing: the series prefix and the SAC the company's accountant chose. */
  invoicing: {
    /** Letters and digits only; with "/26-27/000042" it must stay within 16 characters. */
    prefix: string;
    /** 997331 (licensing the right to use software) or 998434 (software downloads). */
    sac: string;
    sacDescription: string;
  };
  plans: readonly Plan[];
  theme: { colorScheme: "dark"; themeColor: string };
  language: "en";
}

export const site: SiteConfig = {
  product: {
    name: "Pinout",
    tagline: "Every pin, every bus, one desk.",
    description:
      "Pinout is a desktop workbench for embedded developers: board pin maps, serial and logic views, and firmware flashing for Mac and Windows.",
    desktopScheme: "pinout",
    logoPath: "/logo.svg",
  },
  company: {
    legalName: "Pinout Labs Private Limited",
    brandName: "Pinout Labs",
    address: {
      line1: "3rd Floor, 42 Residency Road",
      line2: "Shanthala Nagar, Ashok Nagar",
      city: "Bengaluru",
      state: "Karnataka",
      stateCode: "29",
      postalCode: "560025",
      country: "India",
    },
    gstin: "29AAPCP1234F1ZC",
    cin: "U62011KA2024PTC123456",
    supportEmail: "support@pinout.dev",
    phone: "+91 80 4000 1234",
    grievanceOfficer: {
      name: "Ananya Rao",
      designation: "Head of Customer Support",
      email: "grievance@pinout.dev",
      phone: "+91 80 4000 1235",
    },
  },
  social: [
    { label: "GitHub", url: "https://github.com/pinout-labs" },
    { label: "X", url: "https://x.com/pinoutlabs" },
    { label: "LinkedIn", url: "https://www.linkedin.com/company/pinout-labs" },
  ],
  pricing: {
    currency: "INR",
    pricesIncludeGst: true,
    gstRatePercent: 18,
    renewalNoticeFromPaise: 15_000_00,
    upiAutopayLimitPaise: 15_000_00,
  },
  teams: {
    seatPrices: {
      monthly: [
        { fromSeats: 1, pricePaise: 69_900, pricesAbroad: { USD: 9_00, EUR: 8_50 } },
        { fromSeats: 10, pricePaise: 59_900, pricesAbroad: { USD: 7_50, EUR: 7_00 } },
      ],
      yearly: [
        { fromSeats: 1, pricePaise: 6_99_900, pricesAbroad: { USD: 89_00, EUR: 85_00 } },
        { fromSeats: 10, pricePaise: 5_99_900, pricesAbroad: { USD: 75_00, EUR: 70_00 } },
      ],
    },
    maxSeats: 200,
  },
  invoicing: {
    prefix: "PL",
    sac: "997331",
    sacDescription: "Licensing services for the right to use computer software",
  },
  plans: [
    {
      id: "free",
      name: "Free",
      pricePaise: 0,
      pricesAbroad: { USD: 0, EUR: 0 },
      billingCycle: null,
      deviceLimit: 1,
      features: ["Board pin maps", "Serial monitor", "1 device"],
    },
    {
      id: "pro-monthly",
      name: "Pro",
      pricePaise: 69_900,
      pricesAbroad: { USD: 9_00, EUR: 8_50 },
      billingCycle: "monthly",
      deviceLimit: 3,
      features: ["Everything in Free", "Logic analyser views", "Firmware flashing", "3 devices"],
    },
    {
      id: "pro-yearly",
      name: "Pro",
      pricePaise: 6_99_900,
      pricesAbroad: { USD: 89_00, EUR: 85_00 },
      billingCycle: "yearly",
      deviceLimit: 3,
      features: ["Everything in Free", "Logic analyser views", "Firmware flashing", "3 devices"],
    },
  ],
  theme: { colorScheme: "dark", themeColor: "#0f172a" },
  language: "en",
};
