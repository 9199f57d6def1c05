import { site } from "./site";

/** The words of the home and landing pages: edited here, not in the components. */
const name = site.product.name;

export const features = [
  {
    title: "Pin maps for 400+ boards",
    body: "ESP32, STM32 Nucleo and Blue Pill, RP2040, AVR: every pin with its alternate functions, voltage and boot-strapping notes, searchable.",
    icon: "chip",
  },
  {
    title: "A serial monitor that keeps up",
    body: "Up to 3 Mbaud with timestamps, hex and text side by side, line-ending control and a log you can search after the fact.",
    icon: "terminal",
  },
  {
    title: "Logic views with decoders",
    body: "Decode I²C, SPI and UART captures into transactions, so you read addresses and bytes instead of counting edges.",
    icon: "wave",
  },
  {
    title: "One-click flashing",
    body: "esptool, ST-LINK, DFU and UF2 behind one button, with the boot-mode dance explained when the board does not answer.",
    icon: "bolt",
  },
] as const;

export const steps = [
  {
    title: "Pick your board",
    body: `Search the board you have on your desk; ${name} shows its pinout and the pins you should not touch.`,
  },
  {
    title: "Connect and watch",
    body: "Plug it in: the serial port is found, the baud rate guessed, and the output timestamped.",
  },
  {
    title: "Flash and iterate",
    body: "Build in your usual toolchain, drop the binary in, and flash it without leaving the window.",
  },
] as const;

export const useCases = [
  {
    quote:
      "We bring up a new sensor board every month. Having the pin map and the serial log in one window saves us an afternoon each time.",
    who: "Firmware lead, IoT hardware start-up, Pune",
  },
  {
    quote:
      "My students stop frying GPIOs once they can see which pins are 5 V tolerant before they wire anything.",
    who: "Embedded systems lecturer, engineering college, Coimbatore",
  },
  {
    quote:
      "Decoding I²C without a separate analyser app is what sold it to me. The yearly plan is less than one cheap logic probe.",
    who: "Independent consultant, Bengaluru",
  },
] as const;

export const landing = {
  headline: `Stop guessing which pin is which.`,
  lead: `${name} puts the pinout, the serial monitor and the flasher for your board in one desktop app. Free on one device; Pro from ₹699 a month.`,
  points: [
    "Pin maps with voltage and boot-strapping warnings",
    "Serial monitor with timestamps up to 3 Mbaud",
    "Flash ESP32, STM32 and RP2040 in one click",
  ],
} as const;
