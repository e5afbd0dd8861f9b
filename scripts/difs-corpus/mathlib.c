/* C code of the corpus: static functions, a forced-inline chain, direct and mutual recursion. */
#include "mathlib.h"

#define ML_INLINE static inline __attribute__((always_inline))
#define ML_NOINLINE __attribute__((noinline))

ML_INLINE unsigned rotl(unsigned v, int s) {
  return (v << (s & 31)) | (v >> ((32 - s) & 31));
}

ML_INLINE unsigned round_step(unsigned acc, unsigned char b) {
  acc ^= b;
  acc = rotl(acc, 5);
  return acc * 33u + 7u;
}

ML_INLINE unsigned finish(unsigned acc) {
  acc ^= acc >> 16;
  return rotl(acc, 11) ^ 0x9e3779b9u;
}

static ML_NOINLINE int is_even(int n);

static ML_NOINLINE int is_odd(int n) {
  if (n == 0) {
    return 0;
  }
  return is_even(n - 1);
}

static ML_NOINLINE int is_even(int n) {
  if (n == 0) {
    return 1;
  }
  return is_odd(n - 1);
}

int ml_gcd(int a, int b) {
  if (b == 0) {
    return a < 0 ? -a : a;
  }
  return ml_gcd(b, a % b);
}

int ml_checksum(const unsigned char* data, int len) {
  unsigned acc = 2166136261u;
  for (int i = 0; i < len; i++) {
    acc = round_step(acc, data[i]);
  }
  return (int)(finish(acc) & 0x7fffffff);
}

static ML_NOINLINE int collatz_next(int n) {
  return is_even(n & 15) ? n / 2 : 3 * n + 1;
}

int ml_collatz_steps(int n) {
  int steps = 0;
  while (n > 1 && steps < 500) {
    n = collatz_next(n);
    steps++;
  }
  return steps;
}

static long tree_node(int depth, unsigned seed) {
  if (depth <= 0) {
    return (long)(seed % 17u);
  }
  unsigned left = round_step(seed, (unsigned char)depth);
  return tree_node(depth - 1, left) + tree_node(depth - 2, seed + 1u) + 1;
}

long ml_tree_sum(int depth, int seed) {
  return tree_node(depth, (unsigned)seed);
}
