#!/usr/bin/env bash
# Issue 44's ceph-osd figures: converting Debian's ceph-osd DWARF 5 debug file into the native
# table against Breakpad's `dump_syms -d` and `llvm-gsymutil-19 --convert` on the same file, and
# the agreement of our lookups of its 10,000 addresses with llvm-symbolizer-19.
# Usage: scripts/ceph-debug-bench.sh [RUNS]   (default 5; run from anywhere)
# Inputs (../bench-data/native): ceph-osd, ceph-osd.debug, ceph-osd.addrs10k.txt from
#   KEEP_WORK=1 ../shared/bench/native-sym.sh ../bench-data/native   (builds dump_syms in .work)
#   KEEP_WORK=1 ../shared/bench/native-debug.sh ../bench-data/native
# Each round runs the three converters one after the other, in a rotating order, each in a fresh
# process (cold, as the loader meets a file); /usr/bin/time gives wall time, CPU and peak RSS.
# Ours: DebugFileConvertProbe = what the loader does (DumpSyms with inlines into the table
# builder, the executable for unwind info, the debug file for DWARF), -Xmx1g.
# dump_syms reads a copy of the debug file with an empty .debug_addr added (as native-sym.sh
# does: this Breakpad drops DW_AT_ranges of DWARF 5 units otherwise) found by debug link.
# Env: CP (class path of ours; default benchmarks/target/benchmarks.jar, built if missing)
#      DUMP_SYMS (default ../bench-data/native/.work/breakpad-build/.../dump_syms)
#      SKIP_TIMES=1 (agreement only)  SKIP_AGREE=1 (times only)
set -euo pipefail
ROOT=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd -P)
cd "$ROOT"
RUNS=${1:-5}
D=$(cd ../bench-data/native && pwd -P)
for f in ceph-osd ceph-osd.debug ceph-osd.addrs10k.txt; do
  [ -s "$D/$f" ] || { echo "missing $D/$f: run ../shared/bench/native-sym.sh and native-debug.sh" >&2; exit 1; }
done
DUMP_SYMS=${DUMP_SYMS:-$D/.work/breakpad-build/src/tools/linux/dump_syms/dump_syms}
if [ -z "${CP:-}" ]; then
  [ -f benchmarks/target/benchmarks.jar ] || mvn -q -pl symbols,benchmarks -am package -DskipTests
  CP=benchmarks/target/benchmarks.jar
fi
S=$D/.work/ceph-bench
mkdir -p "$S"
OUT=$S/times.tsv

if [ "${SKIP_TIMES:-0}" != 1 ]; then
  [ -x "$DUMP_SYMS" ] || { echo "no dump_syms at $DUMP_SYMS (KEEP_WORK=1 native-sym.sh builds it)" >&2; exit 1; }
  # dump_syms' inputs, as native-sym.sh prepares them
  BUILDID=$(readelf -n "$D/ceph-osd" | awk '/Build ID/ {print $3}')
  DBG=${BUILDID:2}.debug
  if [ ! -s "$S/fixdbg/$DBG" ]; then
    mkdir -p "$S/fixdbg"
    head -c 16 /dev/zero > "$S/zero16"
    objcopy --add-section .debug_addr="$S/zero16" --set-section-flags .debug_addr=readonly,debug \
      "$D/ceph-osd.debug" "$S/fixdbg/$DBG"
    objcopy --remove-section=.gnu_debuglink "$D/ceph-osd" "$S/ceph-osd.nolink"
    ( cd "$S/fixdbg" && objcopy --add-gnu-debuglink="$DBG" ../ceph-osd.nolink ../ceph-osd )
    rm -f "$S/ceph-osd.nolink"
  fi
  run() { # name
    local load cmd
    case $1 in
      ours) cmd=(java -Xmx1g -cp "$CP" io.symbolicate.bench.nativecode.DebugFileConvertProbe "$D/ceph-osd" "$D/ceph-osd.debug") ;;
      dumpsyms) cmd=(bash -c "cd '$S' && exec '$DUMP_SYMS' -d ceph-osd fixdbg") ;;
      gsym) cmd=(llvm-gsymutil-19 --convert "$D/ceph-osd.debug" --out-file "$S/ceph-osd.gsym") ;;
    esac
    load=$(cut -d' ' -f1 /proc/loadavg)
    /usr/bin/time -f "%e %U %S %M" -o "$S/time.txt" "${cmd[@]}" > "$S/$1.out" 2> "$S/$1.err" \
      || { tail -5 "$S/$1.err" >&2; echo "$1 failed" >&2; exit 1; }
    read -r wall user sys rss < "$S/time.txt"
    cpu=$(echo "$user + $sys" | bc)
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$wall" "$cpu" "$rss" "$load" "$round" >> "$OUT"
    printf '  %-10s wall %7.2f s  cpu %7.2f s  rss %5d MB  load %s\n' "$1" "$wall" "$cpu" $((rss / 1024)) "$load"
  }
  : > "$OUT"
  for round in $(seq 1 "$RUNS"); do
    echo "round $round of $RUNS"
    case $((round % 3)) in
      1) order="ours dumpsyms gsym" ;;
      2) order="dumpsyms gsym ours" ;;
      0) order="gsym ours dumpsyms" ;;
    esac
    for c in $order; do run "$c"; done
    grep -o 'sha256 [0-9a-f]*' "$S/ours.out"
  done
  python3 - "$OUT" <<'PY'
import statistics, sys
rows = [l.split("\t") for l in open(sys.argv[1]) if l.strip()]
by = {}
for name, wall, cpu, rss, load, rnd in rows:
    by.setdefault(name, []).append((float(wall), float(cpu), int(rss), float(load), int(rnd)))
med = {k: (statistics.median(x[0] for x in v), statistics.median(x[1] for x in v),
           max(x[2] for x in v)) for k, v in by.items()}
loads = [float(r[4]) for r in rows]
print("medians of %d runs (load average %.1f-%.1f, median %.1f):" % (len(by["ours"]), min(loads), max(loads), statistics.median(loads)))
for k in ("ours", "dumpsyms", "gsym"):
    w, c, r = med[k]
    print("  %-9s wall %7.2f s  cpu %7.2f s  peak rss %5d MB" % (k, w, c, r // 1024))
# per round ratios (same round, same load), then their median
for k in ("dumpsyms", "gsym"):
    ratios = [a[0] / o[0] for o, a in zip(by["ours"], by[k])]
    cpu = [a[1] / o[1] for o, a in zip(by["ours"], by[k])]
    print("  %s / ours: wall %.2fx (median of per-round ratios %s), cpu %.2fx"
          % (k, statistics.median(ratios), " ".join("%.2f" % r for r in ratios), statistics.median(cpu)))
PY
fi

if [ "${SKIP_AGREE:-0}" != 1 ]; then
  echo "== agreement with llvm-symbolizer-19 (10,000 addresses; PIE: module-relative = ELF address)"
  sed 's/^/0x/' "$D/ceph-osd.addrs10k.txt" \
    | llvm-symbolizer-19 --obj="$D/ceph-osd.debug" --inlines --output-style=JSON > "$S/llvm.jsonl"
  ./symbolicator native lookup --sym "$D/ceph-osd.debug" < "$D/ceph-osd.addrs10k.txt" > "$S/ours.jsonl"
  python3 scripts/ceph-debug-bench/agree.py "$S/llvm.jsonl" "$S/ours.jsonl"
fi
