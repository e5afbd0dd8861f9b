extern void sink(int);
extern int ext;

static inline __attribute__((always_inline)) void inner(int x) {
  sink(x * 3);
  sink(x + ext);
}

static inline __attribute__((always_inline)) void wrap(int x) {
  inner(x);
}

void twice(int a, int b) {
  wrap(a);
  wrap(b);
}
