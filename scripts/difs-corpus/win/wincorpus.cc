// The Windows unit of the corpus (scripts/difs-win-corpus.sh): the entry point of the
// freestanding PE programs (no CRT: nothing here needs one), with MSVC's own spellings of
// inlining control (__forceinline, __declspec(noinline)), calling conventions that decorate x86
// names (__stdcall, __fastcall), a chain of forced inlines three deep and a class whose inlined
// member calls them. It calls the shared program's main(), so app.cc, shapes.cc and mathlib.c
// are the same sources the ELF and Mach-O cases compile.
#include "mathlib.h"

int main(int argc, char** argv);

namespace wincorpus {

template <typename T>
__forceinline T clamp(T v, T lo, T hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

__forceinline int scale(int v) {
  return clamp(v * 3, -1000, 1000) + (v & 7);
}

__forceinline int twice(int v) {
  int a = scale(v);
  int b = scale(v + 1);
  return a ^ b;
}

class Counter {
 public:
  explicit Counter(int start) : n_(start) {}
  __forceinline void bump(int by) {
    n_ += twice(by);
  }
  int value() const { return n_; }

 private:
  int n_;
};

__declspec(noinline) int __stdcall stdcall_sum(int a, int b) {
  int s = 0;
  for (int i = a; i < b; i++) {
    s += ml_gcd(i, b) + twice(i);
  }
  return s;
}

__declspec(noinline) int __fastcall fastcall_mix(int a, int b) {
  Counter c(a);
  for (int i = 0; i < (b & 15); i++) {
    c.bump(i * a);
  }
  return c.value();
}

__declspec(noinline) int depth(int n) {
  if (n <= 0) {
    return scale(n);
  }
  return depth(n - 1) + twice(n);
}

}  // namespace wincorpus

// The image's entry point (/entry:win_start); never run, but kept honest about its work.
extern "C" int win_start(void) {
  volatile int seed = 5;
  int s = main(seed, nullptr);
  s += wincorpus::stdcall_sum(seed, seed + 9);
  s += wincorpus::fastcall_mix(seed, s);
  s += wincorpus::depth(seed & 7);
  return s & 0xff;
}
