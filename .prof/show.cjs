const t=require("fs").readFileSync(process.argv[2],"utf8"); const r=JSON.parse(t.slice(t.indexOf("{")));
console.log("floor", JSON.stringify(r.floor), "load", r.load_avg_1m_at_start);
const row=(kind,k,v)=>console.log(kind.padEnd(8),k.padEnd(24),"rps",v.requests_per_sec,"floor",v.floor_requests_per_sec,"ratio",v.ratio_to_floor,"[",v.ratios_per_round.join(" "),"] cpu",v.cpu_ms_per_request,"floorcpu",v.floor_cpu_ms_per_request,"cpuratio",v.cpu_ratio_to_floor);
for (const [k,v] of Object.entries(r.commits||{})) row("commit",k,v);
for (const [k,v] of Object.entries(r.retrieve||{})) row("retrieve",k,v);
