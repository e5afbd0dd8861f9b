// Parse-time baseline for the JS engine's target ("at most half of the faster JavaScript
// library on the same map"): times Mozilla source-map and @jridgewell/trace-mapping on a map,
// from the file's text to a consumer that has decoded its mappings (one lookup forces that).
// usage: node scripts/js-parse-baseline.mjs NODE_MODULES_DIR MAP [ROUNDS]
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { performance } from "node:perf_hooks";

const [dir, mapFile, roundsArg] = process.argv.slice(2);
const require = createRequire(dir + "/");
const { SourceMapConsumer } = require("source-map");
const { TraceMap, originalPositionFor } = require("@jridgewell/trace-mapping");
const text = readFileSync(mapFile, "utf8");
const rounds = Number(roundsArg || 15);

async function mozilla() {
  const c = await new SourceMapConsumer(JSON.parse(text));
  c.originalPositionFor({ line: 1, column: 0 }); // mappings are decoded lazily, on first use
  c.destroy();
}
function jridgewell() {
  const m = new TraceMap(JSON.parse(text));
  originalPositionFor(m, { line: 1, column: 0 });
}
const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
for (const [name, f] of [["source-map", mozilla], ["trace-mapping", jridgewell]]) {
  const times = [];
  for (let i = 0; i < rounds + 5; i++) {
    const t = performance.now();
    await f();
    if (i >= 5) times.push(performance.now() - t); // the first 5 warm the JIT
  }
  console.log(`${name}\tmedian ${median(times).toFixed(1)} ms\tmin ${Math.min(...times).toFixed(1)} ms`);
}
