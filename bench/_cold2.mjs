import { readFileSync, readdirSync } from "node:fs";
import { extractLinks } from "../dist/links/index.js";
const dir = "/tmp/docbase-bench-check-site-v1-5";
const files = readdirSync(dir, { recursive: true }).filter((f) => f.endsWith(".html")).sort();
for (let pass = 0; pass < 3; pass++) {
  let links = 0; const c0 = process.cpuUsage(); const t0 = performance.now(); const per = [];
  for (const f of files) { const c1 = process.cpuUsage(); links += extractLinks(new Uint8Array(readFileSync(`${dir}/${f}`)), { url: `http://localhost/${f}` }).length; const c = process.cpuUsage(c1); per.push(((c.user + c.system) / 1e3).toFixed(0)); }
  const c = process.cpuUsage(c0);
  console.error("pass", pass, "cpu", ((c.user + c.system) / 1e6).toFixed(2), "s wall", ((performance.now() - t0) / 1e3).toFixed(2), per.join(" "));
}
console.error(files.join(" "));
