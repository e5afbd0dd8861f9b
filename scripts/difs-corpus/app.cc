// The corpus program: no I/O and no C++ runtime (no exceptions, RTTI, new or static guards), so
// the same source links freestanding for Mach-O. Results depend on argc so nothing folds away.
#include "mathlib.h"
#include "shapes.h"

namespace corpus {
namespace {

NO_INLINE int fib(int n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int ackermann_small(int m, int n) {
  if (m == 0) {
    return n + 1;
  }
  if (n == 0) {
    return ackermann_small(m - 1, 1);
  }
  return ackermann_small(m - 1, ackermann_small(m, n - 1));
}

}  // namespace

template <typename T, int N>
class Ring {
 public:
  NO_INLINE void push(T v) {
    items_[head_ % N] = v;
    head_++;
  }
  FORCE_INLINE T newest() const { return items_[(head_ + N - 1) % N]; }
  template <typename F>
  NO_INLINE T fold(T init, F f) const {
    T acc = init;
    for (int i = 0; i < N; i++) {
      acc = f(acc, items_[i]);
    }
    return acc;
  }

 private:
  T items_[N] = {};
  int head_ = 0;
};

struct Stats {
  static NO_INLINE int combine(int a, int b) { return geo::mix(a, b) + ml_gcd(a + 1, b + 1); }
};

NO_INLINE int run_shapes(int seed) {
  geo::Rect r(1, seed % 13 + 2, seed % 7 + 3);
  geo::Circle c(2, seed % 5 + 1);
  const geo::Shape* shapes[2] = {&r, &c};
  int total = 0;
  for (const geo::Shape* s : shapes) {
    total += s->weighted();
  }
  return total;
}

NO_INLINE long run_ring(int seed) {
  Ring<long, 8> ring;
  for (int i = 0; i < 12; i++) {
    ring.push(static_cast<long>(seed) * i + ml_collatz_steps(seed + i));
  }
  int bias = seed & 3;
  auto add = [bias](long a, long b) { return a + b + bias; };
  auto mul = [](long a, long b) { return (a * 31 + b) % 1000003; };
  return ring.fold(0L, add) + ring.fold(1L, mul) + ring.newest();
}

}  // namespace corpus

int main(int argc, char** argv) {
  (void)argv;
  int seed = argc + 3;
  unsigned char bytes[16];
  for (int i = 0; i < 16; i++) {
    bytes[i] = static_cast<unsigned char>(seed * 11 + i);
  }
  int sum = corpus::run_shapes(seed);
  sum += static_cast<int>(corpus::run_ring(seed) & 0xffff);
  sum += corpus::Stats::combine(seed, sum & 255);
  sum += corpus::fib(seed + 5) + corpus::ackermann_small(2, seed);
  sum += ml_checksum(bytes, 16) & 0xff;
  sum += static_cast<int>(ml_tree_sum(seed + 4, seed) & 0xff);
  return sum & 0x7f;
}
