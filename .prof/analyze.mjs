import fs from "node:fs";
const p = JSON.parse(fs.readFileSync(process.argv[2]));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = new Map();
for (let i = 0; i < p.samples.length; i++) dt.set(p.samples[i], (dt.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0));
let total = 0;
const parent = new Map();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const incl = new Map();
for (const [id, t] of dt) {
  const n = byId.get(id);
  const f = n.callFrame;
  const key = `${f.functionName || "(anon)"} ${f.url.replace(/.*\/(node_modules|\.next-bench)\//, "$1/").slice(-70)}:${f.lineNumber}`;
  self.set(key, (self.get(key) ?? 0) + t);
  total += t;
  // inclusive per function (count each function once per stack)
  const seen = new Set();
  let cur = id;
  while (cur !== undefined) {
    const cf = byId.get(cur).callFrame;
    const k = `${cf.functionName || "(anon)"} ${cf.url.replace(/.*\/(node_modules|\.next-bench)\//, "$1/").slice(-70)}:${cf.lineNumber}`;
    if (!seen.has(k)) { seen.add(k); incl.set(k, (incl.get(k) ?? 0) + t); }
    cur = parent.get(cur);
  }
}
const top = (m, n) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, t]) => `${(100 * t / total).toFixed(1).padStart(5)}%  ${k}`).join("\n");
console.log("total ms", (total / 1000).toFixed(0));
console.log("SELF\n" + top(self, Number(process.argv[3] ?? 35)));
console.log("INCLUSIVE\n" + top(incl, Number(process.argv[4] ?? 60)));
