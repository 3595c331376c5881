import { parse } from "parse5";
import { parse5TreeAdapter } from "../../src/document-base/index.ts";
const section = '<section><h2>Title</h2><p>Text with <a href="page/next.html">a link</a> and <em>emphasis</em>.</p><ul><li><a href="#frag">fragment</a></li><li><img src="img/pic.png" alt=""></li></ul></section>';
for (const n of [2500, 10000]) {
const doc = parse(`<!doctype html><html><head></head><body>${section.repeat(n)}</body></html>`);
const els: any[] = []; const st: any[] = [doc];
while (st.length) { const x = st.pop(); if (parse5TreeAdapter.isElementNode(x)) els.push(x); const c = (x as any).childNodes ?? []; for (let i = c.length - 1; i >= 0; i--) st.push(c[i]); }
const per = new WeakMap<object, string>(); const byParent = new WeakMap<object, string>();
for (const e of els) { per.set(e, "https://x/"); byParent.set(e.parentNode, "https://x/"); }
for (let r = 0; r < 5; r++) {
  let t = performance.now(); let s = 0;
  for (let k = 0; k < 10; k++) for (let i = 0; i < els.length; i++) s += per.get(els[i])!.length;
  const a = (performance.now() - t) * 1e6 / els.length / 10; t = performance.now();
  for (let k = 0; k < 10; k++) for (let i = 0; i < els.length; i++) s += byParent.get(els[i].parentNode)!.length;
  const b = (performance.now() - t) * 1e6 / els.length / 10;
  if (r === 4) console.log(els.length, "per-element", a.toFixed(1), "by-parent", b.toFixed(1));
}
}
