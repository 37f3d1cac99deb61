// V8's own RegExp — the semantic reference of engine.jsregex — timed on the text and patterns
// bench_jsregex.py times ours on, in the same run: node v8_regex.mjs TEXT_FILE CASES_JSON [REPEATS]
// CASES_JSON is [[name, source, flags, replacement], ...]; prints {name: best ms of String.replace}.
import fs from "node:fs";

const [textFile, casesFile, reps] = process.argv.slice(2);
const text = fs.readFileSync(textFile, "utf8");
const cases = JSON.parse(fs.readFileSync(casesFile, "utf8"));
const best = {};
let sink = 0;
for (const [name, source, flags, replacement] of cases) {
  const rx = new RegExp(source, flags);
  best[name] = Infinity;
  for (let i = 0; i < Number(reps || 3); i++) {
    const t0 = performance.now();
    sink += text.replace(rx, replacement).length; // used, so the call cannot be dropped
    best[name] = Math.min(best[name], performance.now() - t0);
  }
}
console.log(JSON.stringify({ best, sink }));
