/**
 * A drawing of the app's main window (board pin map beside a serial log), in the site's colours.
 * Inline SVG: no request, sharp at any size, and decorative (the text beside it says the same).
 */
export function ProductVisual({ className = "" }: { className?: string }) {
  const leftPins = ["3V3", "EN", "VP", "VN", "34", "35", "32", "33", "25", "26"];
  const rightPins = ["GND", "23", "22", "TX", "RX", "21", "19", "18", "5", "17"];
  const log = [
    ["12:04:01.118", "boot: ESP-IDF v5.2 2nd stage bootloader"],
    ["12:04:01.204", "I (29) boot: chip revision: v3.0"],
    ["12:04:01.317", "wifi: connected to bench-ap, rssi -48"],
    ["12:04:01.402", "i2c: found 0x3C (SSD1306), 0x76 (BME280)"],
    ["12:04:01.511", "sensor: 24.8 °C, 61 %RH, 1008 hPa"],
  ];
  return (
    <svg viewBox="0 0 640 400" className={className} aria-hidden="true" focusable="false">
      <rect x="0.5" y="0.5" width="639" height="399" rx="14" fill="#0b1220" stroke="#1e293b" />
      <rect x="0.5" y="0.5" width="639" height="34" rx="14" fill="#111a2e" />
      <circle cx="22" cy="18" r="5" fill="#ef4444" />
      <circle cx="40" cy="18" r="5" fill="#f59e0b" />
      <circle cx="58" cy="18" r="5" fill="#22c55e" />
      <text
        x="320"
        y="22"
        textAnchor="middle"
        fill="#94a3b8"
        fontSize="12"
        fontFamily="ui-sans-serif, system-ui"
      >
        ESP32-DevKitC · /dev/ttyUSB0 · 115200
      </text>
      <rect x="24" y="56" width="250" height="320" rx="10" fill="#0f172a" stroke="#1e293b" />
      <rect x="99" y="76" width="100" height="280" rx="8" fill="#14532d" stroke="#22c55e" />
      <rect x="119" y="96" width="60" height="44" rx="4" fill="#0f172a" stroke="#4ade80" />
      {leftPins.map((pin, index) => (
        <g key={`l${pin}`}>
          <rect
            x="89"
            y={158 + index * 19}
            width="14"
            height="10"
            rx="2"
            fill={index === 3 ? "#f59e0b" : "#4ade80"}
          />
          <text
            x="83"
            y={167 + index * 19}
            textAnchor="end"
            fill="#cbd5e1"
            fontSize="10"
            fontFamily="ui-monospace, monospace"
          >
            {pin}
          </text>
        </g>
      ))}
      {rightPins.map((pin, index) => (
        <g key={`r${pin}`}>
          <rect
            x="195"
            y={158 + index * 19}
            width="14"
            height="10"
            rx="2"
            fill={pin === "TX" || pin === "RX" ? "#38bdf8" : "#4ade80"}
          />
          <text
            x="215"
            y={167 + index * 19}
            fill="#cbd5e1"
            fontSize="10"
            fontFamily="ui-monospace, monospace"
          >
            {pin}
          </text>
        </g>
      ))}
      <rect x="290" y="56" width="326" height="200" rx="10" fill="#0f172a" stroke="#1e293b" />
      <text
        x="306"
        y="78"
        fill="#4ade80"
        fontSize="11"
        fontFamily="ui-sans-serif, system-ui"
        fontWeight="600"
      >
        Serial monitor
      </text>
      {log.map(([time, line], index) => (
        <text
          key={time}
          x="306"
          y={104 + index * 28}
          fontSize="9.5"
          fontFamily="ui-monospace, monospace"
        >
          <tspan fill="#64748b">{time} </tspan>
          <tspan fill="#e2e8f0">{line}</tspan>
        </text>
      ))}
      <rect x="290" y="270" width="326" height="106" rx="10" fill="#0f172a" stroke="#1e293b" />
      <text
        x="306"
        y="292"
        fill="#4ade80"
        fontSize="11"
        fontFamily="ui-sans-serif, system-ui"
        fontWeight="600"
      >
        I²C decode · SDA 21 / SCL 22
      </text>
      <path
        d="M306 330h20v-16h14v16h10v-16h24v16h12v-16h8v16h30v-16h14v16h16v-16h10v16h22v-16h16v16h18v-16h12v16h30"
        fill="none"
        stroke="#38bdf8"
        strokeWidth="2"
      />
      <path
        d="M306 362h8v-14h8v14h8v-14h8v14h8v-14h8v14h8v-14h8v14h8v-14h8v14h8v-14h8v14h8v-14h8v14h8v-14h8v14h8v-14h8v14h8v-14h8v14h8v-14h8v14h8v-14h8v14h8v-14h8v14h8v-14h8v14h8"
        fill="none"
        stroke="#a3e635"
        strokeWidth="2"
      />
    </svg>
  );
}
