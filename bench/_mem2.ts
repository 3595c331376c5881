import { readdirSync, writeFileSync } from "node:fs";
import v8 from "node:v8";
import { parseWithPositions } from "../src/links/html-source.ts";
import { corpusDir, readCorpus } from "./harness.ts";
const file = readdirSync(corpusDir).find((f) => f.startsWith("html-") && f.includes(process.argv[2] ?? "2015"))!;
const html = readCorpus(file).repeat(Number(process.argv[3] ?? 5));
(globalThis as any).gc(); const h0 = process.memoryUsage().heapUsed;
const parsed = parseWithPositions(html);
(globalThis as any).gc(); const h1 = process.memoryUsage().heapUsed;
console.log("input code units", html.length, "parse result alive MB", ((h1 - h0) / 1e6).toFixed(1), "per code unit", ((h1 - h0) / html.length).toFixed(1), "tags", parsed.tags.length);
const snap = v8.getHeapSnapshot(); const chunks: Buffer[] = []; for await (const c of snap) chunks.push(c);
const s = JSON.parse(Buffer.concat(chunks).toString());
const f = s.snapshot.meta.node_fields, types = s.snapshot.meta.node_types[0]; const N = f.length;
const agg = new Map<string, [number, number]>();
for (let i = 0; i < s.nodes.length; i += N) { const t = types[s.nodes[i]]; const name = t === "object" || t === "native" || t === "hidden" ? s.strings[s.nodes[i + 1]] : t; const k = `${t}:${String(name).slice(0, 40)}`; const a = agg.get(k) ?? [0, 0]; a[0]++; a[1] += s.nodes[i + f.indexOf("self_size")]; agg.set(k, a); }
for (const [k, [c, sz]] of [...agg].sort((a, b) => b[1][1] - a[1][1]).slice(0, 25)) console.log(String(c).padStart(9), (sz / 1e6).toFixed(2).padStart(8), "MB", k);
console.log(parsed.tags.length);
const big: [number, string][] = []; const hist = new Map<number, [number, number]>();
for (let i = 0; i < s.nodes.length; i += N) { const t = types[s.nodes[i]]; if (t !== "string") continue; const sz = s.nodes[i + f.indexOf("self_size")]; const b = sz < 64 ? 64 : sz < 256 ? 256 : sz < 4096 ? 4096 : sz < 65536 ? 65536 : 1e9; const h = hist.get(b) ?? [0, 0]; h[0]++; h[1] += sz; hist.set(b, h); if (sz > 100000) big.push([sz, String(s.strings[s.nodes[i + 1]]).slice(0, 60)]); }
console.log([...hist].sort((a, b) => a[0] - b[0]).map(([b, [c, sz]]) => `<${b}: ${c} strings ${(sz / 1e6).toFixed(2)} MB`).join("\n")); console.log(big);
