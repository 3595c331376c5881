import { readFileSync } from "node:fs";
import { extractLinks } from "../dist/links/index.js";
const f = process.argv[2] ?? "spec-2009/0.html";
const bytes = new Uint8Array(readFileSync(`/tmp/docbase-bench-check-site-v1-5/${f}`));
for (let i = 0; i < Number(process.argv[3] ?? 1); i++) { const c1 = process.cpuUsage(); const t = performance.now(); extractLinks(bytes, { url: "http://localhost/" + f }); const c = process.cpuUsage(c1); console.error(i, "cpu", ((c.user + c.system) / 1e3).toFixed(0), "wall", (performance.now() - t).toFixed(0)); }
