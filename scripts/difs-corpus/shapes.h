// Header of the C++ corpus program: namespaces, a class hierarchy, a template and a chain of
// always_inline helpers that ends up inlined into several callers (inline frames from a header).
#ifndef DIFS_CORPUS_SHAPES_H
#define DIFS_CORPUS_SHAPES_H

#define FORCE_INLINE inline __attribute__((always_inline))
#define NO_INLINE __attribute__((noinline))

namespace geo {

FORCE_INLINE int clamp_unit(int v) {
  if (v < 0) {
    return 0;
  }
  return v > 1000 ? 1000 : v;
}

FORCE_INLINE int scale(int v, int k) {
  int r = v * k;
  return clamp_unit(r / 3 + 1);
}

FORCE_INLINE int mix(int a, int b) {
  int s = scale(a, 7);
  s ^= scale(b, 5);
  return s + (a & b);
}

template <typename T>
struct Vec {
  T x;
  T y;

  FORCE_INLINE T dot(const Vec& o) const { return x * o.x + y * o.y; }

  NO_INLINE T length2() const { return dot(*this); }

  Vec operator+(const Vec& o) const { return Vec{x + o.x, y + o.y}; }
};

class Shape {
 public:
  explicit Shape(int id) : id_(id) {}
  virtual int area() const { return 0; }
  NO_INLINE int weighted() const { return mix(area(), id_); }

 protected:
  int id_;
};

class Rect : public Shape {
 public:
  Rect(int id, int w, int h) : Shape(id), w_(w), h_(h) {}
  int area() const override;

 private:
  int w_;
  int h_;
};

class Circle : public Shape {
 public:
  Circle(int id, int r) : Shape(id), r_(r) {}
  int area() const override;

 private:
  int r_;
};

}  // namespace geo

#endif
