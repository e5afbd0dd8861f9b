// Cross-check: runs every lookup of a lookups.tsv through Mozilla source-map and compares the
// results with ours (the TSV written by `symbolicator js batch`). Exits 1 on any difference.
// usage: node js-crosscheck.mjs SOURCE_MAP_PKG_DIR MAP LOOKUPS_TSV OURS_TSV
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const [pkgDir, mapPath, lookupsPath, oursPath] = process.argv.slice(2);
const require = createRequire(import.meta.url);
const { SourceMapConsumer } = require(pkgDir);

const raw = readFileSync(mapPath, "utf8");
const t0 = performance.now();
const consumer = await new SourceMapConsumer(raw);
// mozilla parses mappings lazily: the first lookup pays for it, so count it into parse time
consumer.originalPositionFor({ line: 1, column: 0 });
const t1 = performance.now();

const lookups = readFileSync(lookupsPath, "utf8").split("\n").filter((l) => l.length > 0);
const ours = readFileSync(oursPath, "utf8").split("\n").filter((l) => l.length > 0);
if (ours.length !== lookups.length) {
  console.error(`line count differs: ${lookups.length} lookups, ${ours.length} results from us`);
  process.exit(1);
}
const str = (v) => (v === null || v === undefined ? "null" : String(v));
const theirs = new Array(lookups.length);
const t2 = performance.now();
for (let i = 0; i < lookups.length; i++) {
  const tab = lookups[i].indexOf("\t");
  const p = consumer.originalPositionFor({
    line: +lookups[i].slice(0, tab),
    column: +lookups[i].slice(tab + 1),
  });
  theirs[i] = p;
}
const t3 = performance.now();
let diff = 0;
let unmapped = 0;
for (let i = 0; i < lookups.length; i++) {
  const p = theirs[i];
  const line = `${str(p.source)}\t${str(p.line)}\t${str(p.column)}\t${str(p.name)}`;
  if (p.source === null) unmapped++;
  if (line !== ours[i]) {
    if (diff < 10) console.error(`DIFF at ${lookups[i].replace("\t", ":")}: mozilla=${line} ours=${ours[i]}`);
    diff++;
  }
}
consumer.destroy();
const n = lookups.length;
console.log(`${mapPath}: ${n} lookups, ${unmapped} unmapped, ${diff} differences` +
  ` (mozilla source-map: parse+first lookup ${(t1 - t0).toFixed(0)} ms,` +
  ` ${Math.round(n / ((t3 - t2) / 1000))} lookups/s)`);
process.exit(diff === 0 ? 0 : 1);
