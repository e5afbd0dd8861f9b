// Source of mangled names for scripts/demangle-golden.sh: templates, lambdas, operators, std
// containers, local and unnamed types, ABI tags, expressions in template arguments.
#include <algorithm>
#include <array>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

namespace shapes {
struct Point {
  int x, y;
  Point operator+(const Point& o) const { return {x + o.x, y + o.y}; }
  Point& operator+=(const Point& o) { x += o.x; y += o.y; return *this; }
  bool operator==(const Point& o) const { return x == o.x && y == o.y; }
  bool operator<(const Point& o) const { return x < o.x; }
  int operator[](int i) const { return i ? y : x; }
  int operator()(int a, long b) const { return a + int(b); }
  explicit operator bool() const { return x || y; }
  operator long() const { return x; }
  Point* operator->() { return this; }
  Point& operator++() { ++x; return *this; }
  Point operator++(int) { Point p = *this; ++x; return p; }
  Point operator-() const { return {-x, -y}; }
  Point operator~() const { return {~x, ~y}; }
  bool operator!() const { return !x; }
  Point& operator=(const Point&) = default;
  Point& operator<<=(int s) { x <<= s; return *this; }
  int operator->*(int Point::*m) const { return this->*m; }
  void* operator new(std::size_t n) { return ::operator new(n); }
  void operator delete(void* p) { ::operator delete(p); }
  void* operator new[](std::size_t n) { return ::operator new(n); }
  void operator delete[](void* p) { ::operator delete(p); }
  virtual ~Point() {}
  Point(int a, int b) : x(a), y(b) {}
  Point() : x(0), y(0) {}
};

template <typename T, int N>
struct Grid {
  std::array<T, N> cells;
  T sum() const { T s{}; for (auto& c : cells) s += c; return s; }
  template <typename F> void each(F f) { for (auto& c : cells) f(c); }
  static Grid make() { return Grid{}; }
};

template <typename T> struct Box { T v; };
template <typename T> struct Box<T*> { T* p; int kind() const { return 1; } };
}  // namespace shapes

unsigned long long operator""_km(unsigned long long v) { return v * 1000; }

namespace {
int hidden(int v) { return v * 3; }
struct Anon { int f(double) { return 2; } };
}  // namespace

inline namespace v2 { int versioned(const char*) { return 1; } }

namespace abi {
struct [[gnu::abi_tag("tagged")]] Tagged { int v; };
Tagged make_tagged() { return {1}; }
std::string name_of(int) { return "x"; }
}  // namespace abi

template <typename... Ts> int count_all(Ts... ts) { return sizeof...(ts); }
template <typename T> auto twice(T t) -> decltype(t + t) { return t + t; }
template <int N> int fixed(int (&a)[N]) { return N + a[0]; }
template <int N> typename std::enable_if<(N > 2), int>::type big() { return N; }
template <int N> typename std::enable_if<(N <= 2), int>::type big() { return -N; }
template <typename T> decltype(sizeof(T)) size_of(T*) { return sizeof(T); }
template <typename T, typename U> auto mul(T t, U u) -> decltype(t * u) { return t * u; }
template <typename T> void take_ref(T&&) {}
template <typename T> void take_const(const volatile T*) {}
template <class T, template <class> class C> int tt(C<T>&) { return 0; }

int apply(int (*fp)(int), int v) { return fp(v); }
int member_ptr(int shapes::Point::*m, shapes::Point& p) { return p.*m; }
int member_fn(int (shapes::Point::*m)(int, long) const, shapes::Point& p) { return (p.*m)(1, 2); }
int arr_ref(int (&a)[4]) { return a[0]; }
int arr_ptr(int (*a)[3][2]) { return (*a)[0][0]; }
void fn_ref(void (&f)()) { f(); }
int restrict_fn(int* __restrict__ p) { return *p; }
void varargs(const char*, ...) {}
void std_types(std::string, std::istream&, std::ostream&, std::iostream&, std::allocator<int>) {}
void wide(wchar_t, char16_t, char32_t, __int128, unsigned __int128, long double, float, double, bool, signed char, unsigned char, short, unsigned short, long, unsigned long, long long, unsigned long long, decltype(nullptr)) {}
void complex_types(std::vector<std::map<std::string, std::vector<int>>>&, std::unordered_map<int, std::function<void(int)>>*) {}
void tuple_types(std::tuple<int, char, std::pair<long, short>>, std::variant<int, std::string>) {}

struct Base { virtual int v() { return 1; } virtual ~Base() {} };
struct Derived : virtual Base { int v() override { return 2; } };

int with_locals(int k) {
  struct Local { int f() { return 1; } };
  int counter = 0;
  auto lam = [k](int a) { return a + k; };
  auto lam2 = [](auto a, auto b) { return a < b; };
  auto lam3 = [&counter]() mutable { return ++counter; };
  struct { int q; } unnamed_local{3};
  std::vector<int> v{3, 1, 2};
  std::sort(v.begin(), v.end(), lam2);
  std::function<int(int)> fn = lam;
  return Local().f() + fn(1) + lam3() + unnamed_local.q + v[0] + lam2(1.0, 2.0);
}

template <typename T>
int sort_with(std::vector<T>& v) {
  std::sort(v.begin(), v.end(), [](const T& a, const T& b) { return b < a; });
  std::stable_sort(v.begin(), v.end());
  return static_cast<int>(std::count_if(v.begin(), v.end(), [](const T& x) { return x < T{}; }));
}

int use_everything() {
  using namespace shapes;
  Point p(1, 2), q(3, 4);
  Point r = p + q;
  r += q;
  ++r; r++;
  r <<= 1;
  bool b = static_cast<bool>(r) && !(r == q) && (r < q);
  long l = r;
  int s = r[0] + r(1, 2L) + (-r).x + (~r).y + (r->*(&Point::x));
  Point* heap = new Point(1, 1); delete heap;
  Point* arr = new Point[2]; delete[] arr;
  Grid<int, 3> g{}; g.each([&s](int& c) { s += c; });
  Grid<double, 2> gd = Grid<double, 2>::make();
  Box<int*> bp{nullptr};
  std::vector<int> vi{3, 2, 1}; sort_with(vi);
  std::vector<std::string> vs{"b", "a"}; sort_with(vs);
  std::vector<Point> vp{p, q}; sort_with(vp);
  std::map<std::string, std::vector<int>> m; m["a"].push_back(1);
  std::set<long> st{1, 2}; st.insert(3);
  std::unordered_map<int, std::string> um; um[1] = "x";
  std::shared_ptr<Point> sp = std::make_shared<Point>(1, 2);
  std::unique_ptr<Grid<int, 3>> up(new Grid<int, 3>());
  std::ostringstream os; os << s << l;
  int a4[4] = {1, 2, 3, 4};
  int a32[3][2] = {};
  Derived d;
  return s + (b ? 1 : 0) + int(g.sum() + gd.sum()) + bp.kind() + count_all(1, 'c', 2.0, p) +
         twice(3) + int(twice(2.5)) + fixed(a4) + big<3>() + big<1>() + int(size_of(&p)) +
         int(mul(2, 3.0)) + apply(hidden, 2) + member_ptr(&Point::y, p) +
         member_fn(&Point::operator(), p) + arr_ref(a4) + arr_ptr(&a32) + Anon().f(1) +
         versioned("x") + abi::make_tagged().v + int(abi::name_of(1).size()) + int(7_km) +
         d.v() + int(m.size() + st.size() + um.size() + sp->x + up->sum() + os.str().size()) +
         with_locals(2);
}

int main() { take_ref(1); take_const<int>(nullptr); return use_everything(); }
