// Out-of-line members of the shape classes: virtual overrides calling inline helpers.
#include "shapes.h"

namespace geo {

int Rect::area() const {
  Vec<int> d{w_, h_};
  return clamp_unit(d.x * d.y);
}

int Circle::area() const {
  Vec<long> v{r_, r_};
  long a2 = v.length2();
  return scale(static_cast<int>(a2 / 2), 3);
}

}  // namespace geo
