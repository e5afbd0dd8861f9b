#!/usr/bin/env bash
# Generated test inputs CI needs before `mvn verify` (sourced by .ci/run; runnable alone).
# The minidump corpus of ../shared/bench/minidumps.sh (~40 s to 2.5 min): real Linux dumps,
# Breakpad's own goldens and tools (minidump_upload); never committed. A developer's copy
# beside the checkout (../bench-data/minidump) is used as is; otherwise it is generated into
# bench-data/minidump inside the checkout (git-ignored). The tests read its location from
# SYMBOLICATE_MINIDUMP_CORPUS and, with SYMBOLICATE_REQUIRE_CORPUS=1, fail instead of skipping
# when it is missing. A new corpus generator gets its own ensure_* function here.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# apt-get installs the Debian packages whose command or file is missing ("cmd:pkg" or "/path:pkg")
apt_need() {
  local missing=() item what pkg
  for item in "$@"; do
    what=${item%%:*}
    pkg=${item#*:}
    if [[ $what == /* ]]; then
      [ -e "$what" ] || missing+=("$pkg")
    else
      command -v "$what" > /dev/null 2>&1 || missing+=("$pkg")
    fi
  done
  if [ ${#missing[@]} -gt 0 ]; then
    as_root apt-get update
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
  fi
}

ensure_minidump_corpus() {
  local dir=${SYMBOLICATE_MINIDUMP_CORPUS:-}
  if [ -z "$dir" ]; then
    if [ -f ../bench-data/minidump/cases.json ]; then
      dir=$(cd ../bench-data/minidump && pwd)
    else
      dir=$PWD/bench-data/minidump
    fi
  fi
  # KEEP_WORK=1 keeps the unstripped crash programs (.work/build): the walks from debug files read them
  if [ ! -f "$dir/cases.json" ] || [ ! -x "$dir/tools/minidump_upload" ] || [ ! -d "$dir/.work/build" ]; then
    # minidump_upload loads libcurl at run time
    apt_need gcc:gcc g++:g++ make:make objcopy:binutils python3:python3 setarch:util-linux \
      node:nodejs npm:npm /usr/include/zlib.h:zlib1g-dev \
      /usr/lib/x86_64-linux-gnu/libcurl.so.4:libcurl4
    # root gives the generator its PID and mount namespaces (reproducible pids and stack bytes)
    FORCE=1 KEEP_WORK=1 bash ../shared/bench/minidumps.sh "$dir"
  fi
  export SYMBOLICATE_MINIDUMP_CORPUS=$dir
}

# The debug-file corpus of scripts/difs-corpus.sh (issue 44; ~30 s on two idle cores), found
# like the minidump corpus; the tests read SYMBOLICATE_DIFS_CORPUS.
ensure_difs_corpus() {
  local dir=${SYMBOLICATE_DIFS_CORPUS:-}
  if [ -z "$dir" ]; then
    if [ -f ../bench-data/difs/cases.json ]; then
      dir=$(cd ../bench-data/difs && pwd)
    else
      dir=$PWD/bench-data/difs
    fi
  fi
  if [ ! -f "$dir/cases.json" ]; then
    apt_need gcc-12:gcc g++-12:g++ objcopy:binutils clang-19:clang-19 ld.lld-19:lld-19 \
      llvm-symbolizer-19:llvm-19 dwz:dwz eu-addr2line:elfutils python3:python3 setarch:util-linux
    scripts/difs-corpus.sh "$dir"
  fi
  export SYMBOLICATE_DIFS_CORPUS=$dir
}

# The Windows debug-file corpus of scripts/difs-win-corpus.sh (issue 45: clang-cl + lld-link PE
# and PDB pairs; ~10 s), found the same way; the tests read SYMBOLICATE_DIFS_WIN_CORPUS.
ensure_difs_win_corpus() {
  local dir=${SYMBOLICATE_DIFS_WIN_CORPUS:-}
  if [ -z "$dir" ]; then
    if [ -f ../bench-data/difs-win/cases.json ]; then
      dir=$(cd ../bench-data/difs-win && pwd)
    else
      dir=$PWD/bench-data/difs-win
    fi
  fi
  if [ ! -f "$dir/cases.json" ]; then
    apt_need clang-cl-19:clang-19 lld-link-19:lld-19 llvm-pdbutil-19:llvm-19 python3:python3
    scripts/difs-win-corpus.sh "$dir"
  fi
  export SYMBOLICATE_DIFS_WIN_CORPUS=$dir
}

ensure_minidump_corpus
ensure_difs_corpus
ensure_difs_win_corpus
export SYMBOLICATE_REQUIRE_CORPUS=1
echo "generated inputs: minidump corpus $SYMBOLICATE_MINIDUMP_CORPUS, debug-file corpus $SYMBOLICATE_DIFS_CORPUS, Windows debug-file corpus $SYMBOLICATE_DIFS_WIN_CORPUS"
