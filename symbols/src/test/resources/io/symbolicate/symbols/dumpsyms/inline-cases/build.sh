#!/usr/bin/env bash
# Rebuilds libcases.so and its peer answers (llvm.json, addr2line.txt, eu-addr2line.txt) for
# InlineCasesLookupTest. Debian 12: g++ 12, binutils, elfutils, llvm-19. Run from this folder; the
# outputs are committed.
#   nest.cc  one inlined call (inner, called on one line of wrap) under two calls of wrap: its
#            INLINE record groups ranges under both callers, the second of which it equals
#   cold.cc  -> cold.s with the two .loc rows that open second()'s .cold part deleted, as GCC
#            leaves them out when the location does not change: that part's first line row then
#            starts in first()'s .cold part, before the function
#   gap.cc   deeper (level 3) only after other (level 0) started: its record comes after other's,
#            two levels deeper than the record before it
set -euo pipefail
export LC_ALL=C
g++ -O2 -g -fPIC -ffile-prefix-map="$PWD"=/cases -c nest.cc -o nest.o
g++ -O2 -g -fPIC -ffile-prefix-map="$PWD"=/cases -S cold.cc -o - \
  | awk '/^_Z6secondi.cold:/ {skip = 1} skip && /\.loc 1 7/ {n++; if (n <= 2) next} {print}' > cold.s
g++ -c cold.s -o cold.o
g++ -O2 -g -fPIC -ffile-prefix-map="$PWD"=/cases -c gap.cc -o gap.o
g++ -shared -nostdlib -Wl,--build-id=sha1 nest.o cold.o gap.o -o libcases.so
rm -f nest.o cold.o cold.s gap.o
# every instruction address of .text (not the PLT, where the peers name nothing)
llvm-objdump-19 -d -j .text --no-show-raw-insn libcases.so \
  | awk '/^ +[0-9a-f]+:/ {sub(":", "", $1); print $1}' > addrs.txt
sed 's/^/0x/' addrs.txt | llvm-symbolizer-19 --obj=libcases.so --inlines --output-style=JSON > llvm.json
sed 's/^/0x/' addrs.txt | addr2line -a -f -i -C -e libcases.so > addr2line.txt
sed 's/^/0x/' addrs.txt | xargs eu-addr2line -a -f -i -C -e libcases.so > eu-addr2line.txt
