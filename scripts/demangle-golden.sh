#!/usr/bin/env bash
# demangle-golden.sh
#
# Writes the demangler's expectation file: binutils c++filt's answers (data, not our output) for
# mangled names from five sources, one row per name:
#   SOURCE <TAB> MANGLED <TAB> c++filt <TAB> c++filt -p <TAB> c++filt -i <TAB> c++filt -i -p
# (c++filt is verbose: std::basic_string<...> for Ss, Rust hashes; -i is the short form
# Breakpad's and Symbolicator's demanglers print; -p leaves out parameters and return types).
# Sources:
#   fixture  every printable _Z/_R name in ../shared/fixtures/difs (the test finds them again
#            at test time by the same scan and fails if one is missing here);
#   corpus   g++ -O0 and -O2 builds of scripts/demangle-corpus/corpus.cpp (templates, lambdas,
#            operators, std containers, clones .isra/.constprop/.cold);
#   edge     scripts/demangle-corpus/edge-cases.txt: hand-written names of the grammar's corners
#            (special names, expressions, packs, clones, Rust escapes, v0 types and consts);
#   libstdcxx the _Z names of libstdc++.so.6's dynamic symbol table;
#   rust-legacy / rust-v0  scripts/demangle-corpus/corpus.rs built by rustc with each mangling,
#            plus a fixed sample of the v0 names of the toolchain's rustc_driver (when rustc is
#            installed; skipped with a note otherwise).
# c++filt leaves a name it cannot demangle unchanged; such rows are kept (the demangler must
# refuse them too). Output: symbols/src/test/resources/io/symbolicate/symbols/demangle/
# cxxfilt-golden.tsv.gz. Needs binutils (c++filt, nm) and g++; rustc optional.
set -euo pipefail
export LC_ALL=C
ROOT=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd -P)
SHARED=${SHARED:-$ROOT/../shared}
OUT=$ROOT/symbols/src/test/resources/io/symbolicate/symbols/demangle/cxxfilt-golden.tsv.gz
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

names() { # SOURCE < names: dedups, keeps the first source of a name
  sort -u | awk -v s="$1" '{print s "\t" $0}' >>"$WORK/all"
}

# the same scan the test does: printable runs of [A-Za-z0-9_$.] that start with _Z or _R
find "$SHARED/fixtures/difs" -type f -print0 | sort -z |
  xargs -0 grep -aohE '_[ZR][A-Za-z0-9_$.]+' | names fixture

for opt in -O0 -O2; do
  g++ -std=c++17 "$opt" -c "$ROOT/scripts/demangle-corpus/corpus.cpp" -o "$WORK/corpus$opt.o"
  nm "$WORK/corpus$opt.o" | awk '{print $NF}' | grep '^_Z' >>"$WORK/corpus.txt"
done
names corpus <"$WORK/corpus.txt"

grep -v '^$' "$ROOT/scripts/demangle-corpus/edge-cases.txt" | names edge

nm -D /usr/lib/x86_64-linux-gnu/libstdc++.so.6 | awk '{print $NF}' | sed 's/@.*//' | grep '^_Z' | names libstdcxx

if command -v rustc >/dev/null; then
  rustc -o "$WORK/rs_legacy" "$ROOT/scripts/demangle-corpus/corpus.rs"
  nm "$WORK/rs_legacy" | awk '{print $NF}' | grep '^_ZN' | names rust-legacy
  rustc -o "$WORK/rs_v0" -C symbol-mangling-version=v0 "$ROOT/scripts/demangle-corpus/corpus.rs"
  {
    nm "$WORK/rs_v0" | awk '{print $NF}' | grep '^_R'
    # every 10th v0 name of rustc's own driver library: long generic paths, closures, consts
    driver=$(ls "$(rustc --print sysroot)"/lib/librustc_driver-*.so | head -1)
    nm -D --defined-only "$driver" | awk '{print $NF}' | grep '^_R' | sort | awk 'NR % 10 == 1'
  } | names rust-v0
else
  echo "rustc not installed: no rust rows" >&2
fi

# first source wins for a name seen in several
awk -F'\t' '!seen[$2]++' "$WORK/all" >"$WORK/rows"
cut -f2 "$WORK/rows" | c++filt >"$WORK/full"
cut -f2 "$WORK/rows" | c++filt -p >"$WORK/noparams"
cut -f2 "$WORK/rows" | c++filt -i >"$WORK/short"
cut -f2 "$WORK/rows" | c++filt -i -p >"$WORK/shortnoparams"
for f in full noparams short shortnoparams; do [ "$(wc -l <"$WORK/rows")" = "$(wc -l <"$WORK/$f")" ]; done || { echo "c++filt lost lines" >&2; exit 1; }
mkdir -p "$(dirname "$OUT")"
paste "$WORK/rows" "$WORK/full" "$WORK/noparams" "$WORK/short" "$WORK/shortnoparams" | gzip -9n >"$OUT"
echo "$(zcat "$OUT" | wc -l) rows: $(zcat "$OUT" | cut -f1 | sort | uniq -c | tr '\n' ' ')"
echo "c++filt: $(c++filt --version | head -1)"
