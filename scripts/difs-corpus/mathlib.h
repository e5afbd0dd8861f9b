/* The C shared library of the corpus (built as libmathlib.so, and linked statically into the
   program where a packaging has no shared object). */
#ifndef DIFS_CORPUS_MATHLIB_H
#define DIFS_CORPUS_MATHLIB_H
#ifdef __cplusplus
extern "C" {
#endif
int ml_gcd(int a, int b);
int ml_checksum(const unsigned char* data, int len);
int ml_collatz_steps(int n);
long ml_tree_sum(int depth, int seed);
#ifdef __cplusplus
}
#endif
#endif
