extern void sink(int);

static inline __attribute__((always_inline)) int deeper(int y) {
  return y + 7;
}

static inline __attribute__((always_inline)) int leaf(int x) {
  return deeper(x * x);
}

static inline __attribute__((always_inline)) int mid(int x) {
  sink(x);
  return leaf(x * 3);
}

static inline __attribute__((always_inline)) int outer(int x) {
  return mid(x + 1);
}

static inline __attribute__((always_inline)) void other(int x) {
  sink(x + 100);
}

void gap(int a, int b) {
  int r = outer(a);
  other(b);
  sink(r);
}
