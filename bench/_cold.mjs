import { readFileSync, readdirSync } from "node:fs";
import { extractLinks } from "../dist/links/index.js";
const dir = "/tmp/docbase-bench-check-site-v1-5";
const files = readdirSync(dir, { recursive: true }).filter((f) => f.endsWith(".html"));
let links = 0; const c0 = process.cpuUsage();
for (const f of files) links += extractLinks(new Uint8Array(readFileSync(`${dir}/${f}`)), { url: `http://localhost/${f}` }).length;
const c = process.cpuUsage(c0);
console.error(files.length, "files", links, "links; cpu", ((c.user + c.system) / 1e6).toFixed(2), "s");
