import { chromium } from "playwright-core";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox","--disable-gpu","--disable-background-networking"] });
const page = await browser.newPage();
page.on("console", (m) => console.log("console:", m.type(), m.text().slice(0, 1500)));
page.on("pageerror", (e) => console.log("pageerror:", e.message.slice(0, 1500)));
await page.goto(process.argv[2], { waitUntil: "commit" });
for (let i = 0; i < 6; i++) { console.log(i, "title:", JSON.stringify(await page.title()), (await page.evaluate(() => document.querySelectorAll("title").length))); await page.waitForTimeout(300); }
console.log(await page.evaluate(() => document.body.innerText.slice(0, 300)));
await browser.close();
