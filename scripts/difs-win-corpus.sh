#!/usr/bin/env bash
# scripts/difs-win-corpus.sh [OUTDIR]   (default OUTDIR: ../bench-data/difs-win, beside ../shared)
#
# Writes a corpus of Windows debug files of our own to OUTDIR: real PE + PDB pairs made on Linux
# by Debian's clang 19 (clang-cl --target=<arch>-pc-windows-msvc /Z7) and lld-link 19 (/debug),
# freestanding (no Windows SDK, no CRT: /nodefaultlib /entry:win_start), from the sources of
# scripts/difs-corpus/ (the same app.cc, shapes.cc and mathlib.c as the ELF and Mach-O corpus)
# and scripts/difs-corpus/win/wincorpus.cc (__forceinline chains, __declspec(noinline),
# __stdcall/__fastcall, the entry point). For every image, the answers of llvm-symbolizer 19 at
# up to 300 addresses, checked against llvm-pdbutil 19's line dump:
#   <case>/app.exe, app.pdb         one case per compiler setting (and mathlib.dll + .pdb, with
#                                   its import library, in the dll case)
#   src/                            the sources as compiled (the PDBs name them /corpus/src/<file>)
#   cases.json                      the schema of scripts/difs-corpus.sh's (format "pe"; identity:
#                                   code_id and debug_id as llvm-readobj reads them); addresses are
#                                   RVAs. Expected answer: llvm-symbolizer's frames (innermost first)
#                                   where its outermost file and line are the C13 row llvm-pdbutil
#                                   dumps for the address; elsewhere a disagreement with both answers.
#   SHA256SUMS
# Cases: x86_64 at /Od, /O1 /Ob2 and /O2 /Ob2 (inlining: S_INLINESITE records), an x86_64 /O2
# program importing mathlib.dll (exports, a second PDB), i686 /O2 (no .pdata; decorated x86
# names) and arm64 /O2 (arm64 .pdata).
#
# Deterministic: /Brepro (TimeDateStamp and PDB GUID are content hashes), /pdbaltpath (the image
# names its PDB without a folder), -ffile-prefix-map and -object-file-name (no OUTDIR in a PDB),
# -gno-codeview-command-line, /pdbsourcepath: two runs, also into different OUTDIRs, write
# identical files.
# Needs Debian 12 x86_64 packages: clang-19 lld-19 llvm-19 python3. Installs nothing.
# ~10 s of wall time on this shared two-core machine, 1.4 MB of output.
# Env: JOBS (parallel builds, default nproc), KEEP_WORK=1 (keep OUTDIR/.work).
set -euo pipefail
HERE=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd -P)
SRCDIR=$HERE/difs-corpus
case "${1:-}" in
  -h|--help) sed -n '2,/^set -euo/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
  -*) echo "unknown option $1 (usage: $0 [OUTDIR])" >&2; exit 2 ;;
esac
log() { echo "[difs-win-corpus $(date +%H:%M:%S)] $*" >&2; }
die() { echo "[difs-win-corpus] ERROR: $*" >&2; exit 1; }
export LC_ALL=C TZ=UTC SOURCE_DATE_EPOCH=0

missing_cmds="" missing_pkgs=""
want() { # want PACKAGE CMD...
  local pkg=$1 c
  shift
  for c in "$@"; do
    if ! command -v "$c" > /dev/null 2>&1; then
      missing_cmds="$missing_cmds $c"
      case " $missing_pkgs " in *" $pkg "*) ;; *) missing_pkgs="$missing_pkgs $pkg" ;; esac
    fi
  done
}
want clang-19 clang-cl-19
want lld-19 lld-link-19
want llvm-19 llvm-symbolizer-19 llvm-pdbutil-19 llvm-objdump-19 llvm-readobj-19
want python3 python3
if [ -n "$missing_cmds" ]; then
  die "missing command(s):$missing_cmds. Install them with: apt-get install$missing_pkgs"
fi

OUT=${1:-$HERE/../../bench-data/difs-win}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd -P)
WORK=$OUT/.work
T0=$(date +%s%N)
log "output: $OUT"

# Earlier outputs of this script are replaced; nothing else in OUTDIR is touched.
for d in "$OUT"/win-*; do [ -d "$d" ] && rm -rf -- "$d"; done
rm -rf -- "$OUT/src" "$WORK" "$OUT/cases.json" "$OUT/SHA256SUMS"
mkdir -p "$OUT/src" "$WORK"
cp "$SRCDIR"/*.h "$SRCDIR"/*.c "$SRCDIR"/*.cc "$SRCDIR"/win/*.cc "$OUT/src/"
S=$OUT/src
VERSION=$(clang-cl-19 --version | head -1)

# win_case CASE ARCH PACKAGING FLAGS...: compiles the four units in OUTDIR/CASE (the working
# folder: the PDB names objects relative to it) and links them; writes the images' lines to
# $WORK/CASE.binaries (binary, pdb, packaging, compiler, version, flags, arch).
win_case() {
  local case=$1 arch=$2 packaging=$3
  shift 3
  local flags="$*" dir=$OUT/$case f b machine
  case "$arch" in
    x86_64) machine=x64 ;;
    x86) machine=x86 ;;
    arm64) machine=arm64 ;;
  esac
  local target=${arch/x86/i686}
  [ "$arch" = x86_64 ] && target=x86_64
  [ "$arch" = arm64 ] && target=aarch64
  mkdir -p "$dir"
  cd "$dir"
  for f in app.cc shapes.cc mathlib.c wincorpus.cc; do
    b=${f%.*}
    # shellcheck disable=SC2086
    clang-cl-19 --target="$target-pc-windows-msvc" /Z7 /GS- /GR- /EHs-c- $flags \
      -gno-codeview-command-line "/clang:-ffile-prefix-map=$S=/corpus/src" \
      "/clang:-ffile-prefix-map=$dir=." -Xclang "-object-file-name=$b.obj" \
      "-I$S" /c "/Fo$b.obj" -- "$S/$f"
  done
  local link=(lld-link-19 /debug /nodefaultlib /subsystem:console "/machine:$machine" /Brepro
              /pdbsourcepath:/corpus/build)
  case "$packaging" in
    pe-pdb)
      "${link[@]}" /entry:win_start /pdbaltpath:app.pdb /out:app.exe /pdb:app.pdb \
        app.obj shapes.obj mathlib.obj wincorpus.obj
      printf '%s\t%s\t%s\tclang-cl\t%s\t%s\t%s\n' "$case/app.exe" "$case/app.pdb" "$packaging" \
        "$VERSION" "$flags" "$arch" >> "$WORK/$case.binaries" ;;
    dll)
      "${link[@]}" /dll /noentry /pdbaltpath:mathlib.pdb /out:mathlib.dll /pdb:mathlib.pdb \
        /implib:mathlib.lib /export:ml_gcd /export:ml_checksum /export:ml_collatz_steps \
        /export:ml_tree_sum mathlib.obj
      "${link[@]}" /entry:win_start /pdbaltpath:app.pdb /out:app.exe /pdb:app.pdb \
        app.obj shapes.obj wincorpus.obj mathlib.lib
      printf '%s\t%s\t%s\tclang-cl\t%s\t%s\t%s\n' "$case/app.exe" "$case/app.pdb" "$packaging" \
        "$VERSION" "$flags" "$arch" >> "$WORK/$case.binaries"
      printf '%s\t%s\t%s\tclang-cl\t%s\t%s\t%s\n' "$case/mathlib.dll" "$case/mathlib.pdb" \
        "$packaging" "$VERSION" "$flags" "$arch" >> "$WORK/$case.binaries" ;;
    *) die "unknown packaging $packaging" ;;
  esac
  rm -f ./*.obj mathlib.exp
}

# case              arch   packaging flags
CASES="
win-x86_64-O0       x86_64 pe-pdb    /Od
win-x86_64-O1       x86_64 pe-pdb    /O1 /Ob2
win-x86_64-O2       x86_64 pe-pdb    /O2 /Ob2
win-x86_64-O2-dll   x86_64 dll       /O2 /Ob2
win-x86-O2          x86    pe-pdb    /O2 /Ob2
win-arm64-O2        arm64  pe-pdb    /O2 /Ob2
"
JOBS=${JOBS:-$(nproc)}
build_failed() {
  local f
  wait || true
  for f in "$WORK"/*.log; do
    grep -q '^ok$' "$f" || { echo "--- $f" >&2; tail -20 "$f" >&2; }
  done
  die "a build failed (its log is above)"
}
while read -r name arch packaging flags; do
  [ -n "$name" ] || continue
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || build_failed; done
  # shellcheck disable=SC2086
  ( win_case "$name" "$arch" "$packaging" $flags; echo ok ) > "$WORK/$name.log" 2>&1 &
done <<< "$CASES"
while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n || build_failed; done
cat "$WORK"/*.binaries | sort > "$WORK/binaries.tsv"
T1=$(date +%s%N)
log "built $(wc -l < "$WORK/binaries.tsv") images in $(( (T1 - T0) / 1000000 )) ms"

python3 "$SRCDIR/win/probe_win.py" "$OUT" "$WORK/binaries.tsv" "$JOBS"
T2=$(date +%s%N)
log "looked up in $(( (T2 - T1) / 1000000 )) ms"

mapfile -t files < <(cd "$OUT" && find . -path ./.work -prune -o -type f ! -name SHA256SUMS -print \
                     | sed 's|^\./||' | sort)
( cd "$OUT" && sha256sum "${files[@]}" > SHA256SUMS )
if [ "${KEEP_WORK:-0}" = 1 ]; then log "kept scratch folder $WORK"; else rm -rf -- "$WORK"; fi
log "done in $(( ($(date +%s%N) - T0) / 1000000 )) ms: ${#files[@]} files"
