#!/usr/bin/env bash
# scripts/difs-corpus.sh [OUTDIR]   (default OUTDIR: ../bench-data/difs, beside ../shared)
#
# Writes a corpus of native debug files of our own to OUTDIR: the small C and C++ program in
# scripts/difs-corpus/ (namespaces, classes, templates, lambdas, always_inline chains, static
# functions, recursion, a C shared library) built with Debian's gcc 12 and clang 19 in many
# packagings, and for every binary the answers of several symbolizers at up to ~300 addresses:
#   <case>/...        the files of one packaging (executable, .so, .debug, .dwo, .dwp, DWZ
#                     supplementary file, Mach-O objects, dSYM bundles, fat files)
#   src/              the sources as compiled (DWARF names them /corpus/src/<file>)
#   cases.json        one entry per binary: path, debug file, packaging, compiler, flags, format,
#                     arch, identity (ELF build id / Mach-O UUID), and its addresses, each with the
#                     expected frames (innermost first: function, file, line) and the tools that
#                     agreed; addresses where no two tools agree go to "disagreements" with every
#                     tool's answer. Paths are relative to OUTDIR.
#   SHA256SUMS
# Packagings (ELF x86-64 for gcc-* and clang-*): DWARF 4 and 5; -O0, -O1, -O2 (inlining);
# -gsplit-dwarf with the .dwo files beside the binary, or only a .dwp (binutils dwp for gcc,
# llvm-dwp for clang); objcopy --only-keep-debug + --add-gnu-debuglink + stripped executable;
# zlib and zstd SHF_COMPRESSED debug sections (ld, objcopy, ld.lld, llvm-objcopy); dwz -m with a
# supplementary file shared by the program and the library; PIE, non-PIE and shared objects.
# Mach-O (macho-*): clang -target x86_64-/arm64-apple-macos11, linked freestanding by ld64.lld
# (-e _main, no SDK), dSYM by dsymutil, and a fat (universal) executable and dSYM by llvm-lipo.
#
# The expected answer (scripts/difs-corpus/probe.py) is what at least two tools agree on and no
# other answer has as many votes. Tools: llvm-symbolizer 19 (--inlines, JSON), binutils addr2line
# (-f -i -C), elfutils eu-addr2line (-f -i -C) and llvm-gsymutil 19 (DWARF converted to GSYM,
# names demangled by llvm-cxxfilt). binutils and elfutils read no Mach-O, so there only the two
# LLVM tools vote. Frames are compared after normalisation: function names by their base name
# (no namespace/class qualifiers, template arguments, parameters or clone suffixes: tools print
# DW_AT_name or the demangled linkage name), paths by os.path.normpath, line 0/'?' as 0,
# discriminators and columns dropped. docs/native.md ("Generated debug-file corpus") says more.
#
# Deterministic: -ffile-prefix-map maps OUTDIR/src to /corpus/src and the compilation folder
# to '.' (so .dwo files are found beside the binary), ZERO_AR_DATE=1 and -oso_prefix for
# ld64.lld, compilers under setarch -R (gcc's DWO ids hash heap pointers), no timestamps: two
# runs, also into different OUTDIRs, write identical files.
# Needs Debian 12 x86_64 packages: gcc g++ binutils clang-19 lld-19 llvm-19 dwz elfutils python3
# util-linux. Installs nothing: a missing tool is named with the apt-get line that brings it.
# ~60 s of CPU (about a third of it starting LLVM tools): ~30 s on two idle cores; 8 MB output.
# Env: JOBS (parallel builds, default nproc), KEEP_WORK=1 (keep OUTDIR/.work, the tools' raw output).
set -euo pipefail
HERE=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd -P)
SRCDIR=$HERE/difs-corpus
case "${1:-}" in
  -h|--help) sed -n '2,/^set -euo/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
  -*) echo "unknown option $1 (usage: $0 [OUTDIR])" >&2; exit 2 ;;
esac
log() { echo "[difs-corpus $(date +%H:%M:%S)] $*" >&2; }
die() { echo "[difs-corpus] ERROR: $*" >&2; exit 1; }
export LC_ALL=C TZ=UTC ZERO_AR_DATE=1 SOURCE_DATE_EPOCH=0

# ---------------------------------------------------------------------------- tools
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
want gcc gcc-12
want g++ g++-12
want binutils objcopy strip readelf addr2line dwp
want clang-19 clang-19 clang++-19
want lld-19 ld.lld-19 ld64.lld-19
want llvm-19 llvm-symbolizer-19 llvm-dwp-19 llvm-objcopy-19 llvm-dwarfdump-19 llvm-objdump-19 \
  dsymutil-19 llvm-lipo-19 llvm-gsymutil-19 llvm-cxxfilt-19
want dwz dwz
want elfutils eu-addr2line
want python3 python3
want util-linux setarch
if [ -n "$missing_cmds" ]; then
  die "missing command(s):$missing_cmds. Install them with: apt-get install$missing_pkgs"
fi
[ "$(uname -m)" = x86_64 ] || die "the ELF cases are built for the host, which must be x86_64 (this is $(uname -m))"
case "$(objcopy --help)" in *zstd*) ;; *) die "this objcopy has no zstd compression (binutils >= 2.40 is needed)" ;; esac

NOASLR="setarch $(uname -m) -R"
if ! $NOASLR true 2> /dev/null; then
  echo "[difs-corpus] WARNING: setarch -R fails here; gcc's split-DWARF ids will differ per run" >&2
  NOASLR=""
fi

OUT=${1:-$HERE/../../bench-data/difs}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd -P)
WORK=$OUT/.work
T0=$(date +%s%N)
log "output: $OUT"

# Earlier outputs of this script are replaced; nothing else in OUTDIR is touched.
for d in "$OUT"/gcc-* "$OUT"/clang-* "$OUT"/macho-*; do [ -d "$d" ] && rm -rf -- "$d"; done
rm -rf -- "$OUT/src" "$WORK" "$OUT/cases.json" "$OUT/SHA256SUMS"
mkdir -p "$OUT/src" "$WORK"
cp "$SRCDIR"/*.h "$SRCDIR"/*.c "$SRCDIR"/*.cc "$OUT/src/"
S=$OUT/src

# ---------------------------------------------------------------------------- builds
# Every case builds in its own folder (the compiler's working directory), writes a line per
# binary to $WORK/<case>.binaries: binary<TAB>debug file<TAB>packaging<TAB>compiler<TAB>flags
# <TAB>format<TAB>arch<TAB>lookup file (the file the tools read; for a dSYM its DWARF file).
COMMON="-fno-stack-protector -funwind-tables"

record() { # record CASE BINARY DEBUG PACKAGING COMPILER FLAGS FORMAT ARCH LOOKUP
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >> "$WORK/$1.binaries"
}

# compile KEY TOOLCHAIN FLAGS...: the three units into $WORK/obj/KEY/{app,shapes,mathlib}.o (and
# .dwo files with -gsplit-dwarf), compiled there once for every case that shares these flags.
# TOOLCHAIN: gcc, clang, or macho-ARCH (clang for ARCH-apple-macos11).
compile() {
  local key=$1 tc=$2 cc cxx
  shift 2
  case "$tc" in
    gcc) cc=gcc-12 cxx=g++-12 ;;
    clang) cc=clang-19 cxx=clang++-19 ;;
    macho-*) cc="clang-19 --target=${tc#macho-}-apple-macos11" cxx="clang++-19 --target=${tc#macho-}-apple-macos11" ;;
  esac
  # gcc's DWO id hashes heap pointers: with ASLR on, every -gsplit-dwarf compile differs
  cc="$NOASLR $cc" cxx="$NOASLR $cxx"
  local dir=$WORK/obj/$key
  local pm="-ffile-prefix-map=$S=/corpus/src -ffile-prefix-map=$dir=."
  mkdir -p "$dir"
  cd "$dir"
  $cxx $COMMON -fno-exceptions -fno-rtti $pm "$@" -c "$S/app.cc" -o app.o
  $cxx $COMMON -fno-exceptions -fno-rtti $pm "$@" -c "$S/shapes.cc" -o shapes.o
  $cc $COMMON $pm "$@" -fPIC -c "$S/mathlib.c" -o mathlib.o
}
objkey() { echo "$*" | tr -c 'A-Za-z0-9=\n-' _; }

# objects CASE TOOLCHAIN FLAGS...: copies the compiled units of these flags into the case folder.
objects() {
  local case=$1 tc=$2
  shift 2
  mkdir -p "$OUT/$case"
  cp "$WORK/obj/$(objkey "$tc" "$@")"/* "$OUT/$case/"
}

# elf_case CASE COMPILER PACKAGING FLAGS...: compiles and links one ELF case; PACKAGING says what
# happens after the link.
elf_case() {
  local case=$1 compiler=$2 packaging=$3
  shift 3
  local cc cxx ld flags="$*" dir=$OUT/$case
  if [ "$compiler" = gcc ]; then cc=gcc-12 cxx=g++-12 ld=""; else cc=clang-19 cxx=clang++-19 ld="-fuse-ld=lld"; fi
  objects "$case" "$compiler" "$@"
  cd "$dir"
  local link_extra=""
  case " $flags " in *" -fno-pie "*) link_extra="-no-pie" ;; esac
  case "$packaging" in
    zlib-ld) link_extra="-Wl,--compress-debug-sections=zlib" ;;
    zstd-ld) link_extra="-Wl,--compress-debug-sections=zstd" ;;
  esac
  case "$packaging" in
    so|dwz)
      $cc $ld -shared -Wl,-soname,libmathlib.so -o libmathlib.so mathlib.o
      $cxx $ld -o app app.o shapes.o -L. -lmathlib -Wl,-rpath,'$ORIGIN' ;;
    *)
      # shellcheck disable=SC2086
      $cxx $ld $link_extra "$@" -o app app.o shapes.o mathlib.o ;;
  esac
  case "$packaging" in
    pie|nopie|zlib-ld|zstd-ld)
      record "$case" "$case/app" "" "$packaging" "$compiler" "$flags" elf x86_64 "$case/app" ;;
    split-dwo)
      record "$case" "$case/app" "" "$packaging" "$compiler" "$flags" elf x86_64 "$case/app" ;;
    split-dwp)
      if [ "$compiler" = gcc ]; then dwp -e app -o app.dwp; else llvm-dwp-19 -e app -o app.dwp; fi
      rm -f ./*.dwo
      record "$case" "$case/app" "$case/app.dwp" "$packaging" "$compiler" "$flags" elf x86_64 "$case/app" ;;
    debuglink)
      objcopy --only-keep-debug app app.debug
      objcopy --strip-all --add-gnu-debuglink=app.debug app app.stripped
      mv app.stripped app
      record "$case" "$case/app" "$case/app.debug" "$packaging" "$compiler" "$flags" elf x86_64 "$case/app" ;;
    zlib-objcopy|zstd-objcopy)
      objcopy --compress-debug-sections="${packaging%-objcopy}" app ;;&
    zlib-llvm-objcopy|zstd-llvm-objcopy)
      llvm-objcopy-19 --compress-debug-sections="${packaging%-llvm-objcopy}" app ;;&
    z*-objcopy)
      record "$case" "$case/app" "" "$packaging" "$compiler" "$flags" elf x86_64 "$case/app" ;;
    so)
      record "$case" "$case/libmathlib.so" "" "$packaging" "$compiler" "$flags" elf x86_64 "$case/libmathlib.so"
      record "$case" "$case/app" "" "$packaging" "$compiler" "$flags" elf x86_64 "$case/app" ;;
    dwz)
      # -M names the supplementary file as the binaries' .gnu_debugaltlink records it.
      dwz -m common.sup -M common.sup app libmathlib.so
      record "$case" "$case/app" "$case/common.sup" "$packaging" "$compiler" "$flags" elf x86_64 "$case/app"
      record "$case" "$case/libmathlib.so" "$case/common.sup" "$packaging" "$compiler" "$flags" elf x86_64 "$case/libmathlib.so" ;;
    *) die "unknown packaging $packaging" ;;
  esac
  rm -f app.o shapes.o mathlib.o
  if [ "$packaging" != split-dwo ]; then rm -f ./*.dwo; fi
}

# macho_case CASE ARCH FLAGS...: freestanding Mach-O executable linked by ld64.lld (no SDK: -e
# _main and no libSystem), its object files kept (the executable's debug map names them) and a
# dSYM from dsymutil.
macho_case() {
  local case=$1 arch=$2
  shift 2
  local flags="$*"
  objects "$case" "macho-$arch" "$@"
  cd "$OUT/$case"
  ld64.lld-19 -arch "$arch" -platform_version macos 11.0 11.0 -e _main -oso_prefix . \
    -o app app.o shapes.o mathlib.o
  dsymutil-19 app -o app.dSYM
  rm -rf app.dSYM/Contents/Resources/Relocations
  record "$case" "$case/app" "$case/app.dSYM" dsym clang "$flags" macho "$arch" \
    "$case/app.dSYM/Contents/Resources/DWARF/app"
}

# macho_fat: the two thin executables and dSYM DWARF files of macho-* joined by llvm-lipo.
macho_fat() {
  local case=macho-fat-dsym dir=$OUT/macho-fat-dsym a
  mkdir -p "$dir/app.dSYM/Contents/Resources/DWARF"
  llvm-lipo-19 -create "$OUT/macho-x86_64-O2-dsym/app" "$OUT/macho-arm64-O2-dsym/app" -output "$dir/app"
  llvm-lipo-19 -create "$OUT/macho-x86_64-O2-dsym/app.dSYM/Contents/Resources/DWARF/app" \
    "$OUT/macho-arm64-O2-dsym/app.dSYM/Contents/Resources/DWARF/app" \
    -output "$dir/app.dSYM/Contents/Resources/DWARF/app"
  cp "$OUT/macho-x86_64-O2-dsym/app.dSYM/Contents/Info.plist" "$dir/app.dSYM/Contents/Info.plist"
  for a in x86_64 arm64; do
    record "$case" "$case/app" "$case/app.dSYM" fat-dsym clang "-O2 -gdwarf-4" macho "$a" \
      "$case/app.dSYM/Contents/Resources/DWARF/app"
  done
}

# case                       toolchain packaging        flags
CASES="
gcc-O0-dwarf5-pie            gcc   pie                -O0 -gdwarf-5
gcc-O1-dwarf4-nopie          gcc   nopie              -O1 -gdwarf-4 -fno-pie
gcc-O1-dwarf4-zlib           gcc   zlib-objcopy       -O1 -gdwarf-4 -fno-pie
gcc-O2-dwarf5-pie            gcc   pie                -O2 -gdwarf-5
gcc-O2-dwarf4-pie            gcc   pie                -O2 -gdwarf-4
gcc-O2-dwarf5-split-dwo      gcc   split-dwo          -O2 -gdwarf-5 -gsplit-dwarf
gcc-O2-dwarf4-split-dwp      gcc   split-dwp          -O2 -gdwarf-4 -gsplit-dwarf
gcc-O2-dwarf5-debuglink      gcc   debuglink          -O2 -gdwarf-5
gcc-O2-dwarf5-zlib           gcc   zlib-ld            -O2 -gdwarf-5
gcc-O2-dwarf5-zstd           gcc   zstd-objcopy       -O2 -gdwarf-5
gcc-O2-dwarf5-so             gcc   so                 -O2 -gdwarf-5
gcc-O2-dwarf5-dwz            gcc   dwz                -O2 -gdwarf-5
gcc-O2-dwarf4-dwz            gcc   dwz                -O2 -gdwarf-4
clang-O0-dwarf5-pie          clang pie                -O0 -gdwarf-5
clang-O1-dwarf4-nopie        clang nopie              -O1 -gdwarf-4 -fno-pie
clang-O2-dwarf5-pie          clang pie                -O2 -gdwarf-5
clang-O2-dwarf4-pie          clang pie                -O2 -gdwarf-4
clang-O2-dwarf5-split-dwo    clang split-dwo          -O2 -gdwarf-5 -gsplit-dwarf
clang-O2-dwarf5-split-dwp    clang split-dwp          -O2 -gdwarf-5 -gsplit-dwarf
clang-O2-dwarf4-split-dwp    clang split-dwp          -O2 -gdwarf-4 -gsplit-dwarf
clang-O2-dwarf5-debuglink    clang debuglink          -O2 -gdwarf-5
clang-O2-dwarf5-zlib         clang zlib-llvm-objcopy  -O2 -gdwarf-5
clang-O2-dwarf5-zstd         clang zstd-ld            -O2 -gdwarf-5
clang-O2-dwarf5-so           clang so                 -O2 -gdwarf-5
clang-O2-dwarf4-dwz          clang dwz                -O2 -gdwarf-4
macho-x86_64-O2-dsym         macho-x86_64 dsym        -O2 -gdwarf-4
macho-arm64-O2-dsym          macho-arm64  dsym        -O2 -gdwarf-4
macho-x86_64-O0-dsym         macho-x86_64 dsym        -O0 -gdwarf-5
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
run_bg() { # run_bg NAME FUNCTION ARGS...: at most JOBS builds at once (errexit holds inside)
  local name=$1
  shift
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || build_failed; done
  ( "$@"; echo ok ) > "$WORK/$name.log" 2>&1 &
}
wait_all() {
  while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n || build_failed; done
}
build_all() {
  local name tc packaging flags keys=" " key
  while read -r name tc packaging flags; do
    [ -n "$name" ] || continue
    key=$(objkey "$tc" $flags)
    case "$keys" in *" $key "*) continue ;; esac
    keys="$keys$key "
    # shellcheck disable=SC2086
    run_bg "obj-$key" compile "$key" "$tc" $flags
  done <<< "$CASES"
  wait_all
  log "compiled $(echo $keys | wc -w) flag sets"
  while read -r name tc packaging flags; do
    [ -n "$name" ] || continue
    # shellcheck disable=SC2086
    case "$tc" in
      macho-*) run_bg "$name" macho_case "$name" "${tc#macho-}" $flags ;;
      *) run_bg "$name" elf_case "$name" "$tc" "$packaging" $flags ;;
    esac
  done <<< "$CASES"
  wait_all
  macho_fat
}
log "building $(echo "$CASES" | grep -c .) cases with $JOBS jobs"
build_all
cat "$WORK"/*.binaries | sort > "$WORK/binaries.tsv"
T1=$(date +%s%N)
log "built $(wc -l < "$WORK/binaries.tsv") binaries in $(( (T1 - T0) / 1000000 )) ms"

# ---------------------------------------------------------------------------- lookups
python3 "$SRCDIR/probe.py" "$OUT" "$WORK/binaries.tsv" "$JOBS"
T2=$(date +%s%N)
log "looked up in $(( (T2 - T1) / 1000000 )) ms"

mapfile -t files < <(cd "$OUT" && find . -path ./.work -prune -o -type f ! -name SHA256SUMS -print \
                     | sed 's|^\./||' | sort)
( cd "$OUT" && sha256sum "${files[@]}" > SHA256SUMS )
if [ "${KEEP_WORK:-0}" = 1 ]; then log "kept scratch folder $WORK"; else rm -rf -- "$WORK"; fi
log "done in $(( ($(date +%s%N) - T0) / 1000000 )) ms: ${#files[@]} files"
