/**
 * UPI AutoPay as NPCI allows it since UPI Collect ended on 28 Feb 2026: the mandate's
 * `upi://mandate` link, which opens the buyer's UPI app on a phone, and the same link as a QR code
 * to scan on a computer. Never a UPI ID to type.
 */
import { renderSVG } from "uqr";

export function upiMandate(subscriptionId: string, name: string, amountPaise: number) {
  const uri = `upi://mandate?${new URLSearchParams({
    pa: "sandbox@razorpay",
    pn: name,
    am: (amountPaise / 100).toFixed(2),
    cu: "INR",
    tr: subscriptionId,
    recur: "ASPRESENTED",
  })}`;
  const svg = renderSVG(uri, { border: 2 });
  return { uri, qr: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}` };
}
