extern void sink(int);
extern void report(const char*, int) __attribute__((cold));
extern int ext;

static inline __attribute__((always_inline)) void check(int x) {
  if (__builtin_expect(x < ext, 0)) {
    report("bad", x);
  }
}

void first(int a) {
  for (int i = 0; i < a; i++) {
    check(a + i);
    sink(a + i);
  }
}

void second(int b) {
  for (int i = 0; i < b; i++) {
    check(b + i);
    sink(b * i);
  }
}
