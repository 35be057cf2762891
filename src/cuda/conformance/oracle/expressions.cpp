// Oracle for C++ integer and conversion semantics as CUDA device code has them: each entry is a
// CUDA expression over `x` (and `y`), evaluated here on the host for every valid pair of a
// table of edge values. The conformance cases build their kernels from the very text printed
// here (`expr`), so the kernel and its oracle cannot drift apart.
#include <cstdlib>

#include "emit.h"

// The CUDA device intrinsics and overloads, as the CUDA Math API documents them.
static int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x)); }
static int __ffs(int x) { return x == 0 ? 0 : __builtin_ctz(static_cast<unsigned>(x)) + 1; }
static int __popc(unsigned x) { return __builtin_popcount(x); }
static unsigned __brev(unsigned x) {
  unsigned r = 0;
  for (int b = 0; b < 32; ++b) r |= ((x >> b) & 1u) << (31 - b);
  return r;
}
static int min(int a, int b) { return a < b ? a : b; }
static int max(int a, int b) { return a > b ? a : b; }
static unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
static unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
static unsigned max(int a, unsigned b) { return max(static_cast<unsigned>(a), b); }
static unsigned min(int a, unsigned b) { return min(static_cast<unsigned>(a), b); }

template <class T> std::vector<T> edges();
template <> std::vector<char> edges() { return {0, 1, -1, 100, -100, 127, -128}; }
template <> std::vector<signed char> edges() { return {0, 1, -1, 100, -100, 127, -128}; }
template <> std::vector<unsigned char> edges() { return {0, 1, 100, 127, 128, 200, 255}; }
template <> std::vector<short> edges() { return {0, 1, -1, 1000, -1000, 32767, -32768}; }
template <> std::vector<unsigned short> edges() { return {0, 1, 255, 1000, 32768, 65535}; }
template <> std::vector<int> edges() {
  return {0, 1, -1, 2, -2, 3, 7, -7, 31, 46341, 100000, -100000, 0x40000000, INT_MAX, INT_MIN};
}
template <> std::vector<unsigned> edges() {
  return {0u, 1u, 2u, 3u, 7u, 31u, 32u, 100000u, 0x7fffffffu, 0x80000000u, 0xdeadbeefu, 0xfffffffeu, 0xffffffffu};
}
template <> std::vector<float> edges() {
  return {0.0f, -0.0f, 0.5f, -0.5f, 0.99999994f, 1.5f, -1.5f, 2.5f, -2.5f, 2.7f, -2.7f, 255.9f, 123.456f,
          -32768.5f, 16777217.0f, 16777219.0f, 1e9f, -1e9f, 2147483520.0f, 3e9f, 4294967040.0f};
}

template <class TX, class TY, class TR, class F, class V>
void binary(const char* name, const char* tx, const char* ty, const char* tr, const char* expr, F f, V valid) {
  std::vector<TX> xs;
  std::vector<TY> ys;
  std::vector<TR> rs;
  for (TX x : edges<TX>())
    for (TY y : edges<TY>())
      if (valid(x, y)) {
        xs.push_back(x);
        ys.push_back(y);
        rs.push_back(f(x, y));
      }
  json_open_case(name);
  std::printf(",\"tx\":");
  json_string(tx);
  std::printf(",\"ty\":");
  json_string(ty);
  std::printf(",\"tr\":");
  json_string(tr);
  std::printf(",\"expr\":");
  json_string(expr);
  std::printf(",\n   \"x\":");
  json_array(xs);
  if (ty[0]) {
    std::printf(",\n   \"y\":");
    json_array(ys);
  }
  std::printf(",\n   \"r\":");
  json_array(rs);
  std::printf("}");
}

// B(name, type of x, type of y, result type, expression, valid): a binary expression.
// U(name, type of x, result type, expression, valid): a unary one (y absent).
#define B(name, TX, TY, TR, EXPR, VALID) \
  binary<TX, TY, TR>(#name, #TX, #TY, #TR, #EXPR, [](TX x, TY y) { return static_cast<TR>(EXPR); }, \
                     [](TX x, TY y) { (void)x; (void)y; return static_cast<bool>(VALID); });
#define U(name, TX, TR, EXPR, VALID) \
  binary<TX, int, TR>(#name, #TX, "", #TR, #EXPR, [](TX x, int) { return static_cast<TR>(EXPR); }, \
                      [](TX x, int y) { (void)x; return y == 0 && static_cast<bool>(VALID); });

static bool shift_ok(int y) { return y >= 0 && y < 32; }
static bool shift_ok(unsigned y) { return y < 32; }

int main() {
  std::printf("[");
  // [expr.add], [expr.mul]: wrap-around on 32 bits, quotients truncated toward zero, and
  // (x / y) * y + x % y == x, so % takes the sign of the dividend.
  B(add_int, int, int, int, x + y, true)
  B(sub_int, int, int, int, x - y, true)
  B(mul_int, int, int, int, x * y, true)
  B(div_int, int, int, int, x / y, y != 0 && !(x == INT_MIN && y == -1))
  B(mod_int, int, int, int, x % y, y != 0 && !(x == INT_MIN && y == -1))
  B(add_uint, unsigned, unsigned, unsigned, x + y, true)
  B(sub_uint, unsigned, unsigned, unsigned, x - y, true)
  B(mul_uint, unsigned, unsigned, unsigned, x * y, true)
  B(div_uint, unsigned, unsigned, unsigned, x / y, y != 0)
  B(mod_uint, unsigned, unsigned, unsigned, x % y, y != 0)
  U(neg_int, int, int, -x, true)
  U(neg_uint, unsigned, unsigned, -x, true)
  // [expr.shift]: counts 0..31 (32 and more are undefined); >> on a negative int is arithmetic.
  B(shl_int, int, int, int, x << y, shift_ok(y))
  B(shr_int, int, int, int, x >> y, shift_ok(y))
  B(shl_uint, unsigned, unsigned, unsigned, x << y, shift_ok(y))
  B(shr_uint, unsigned, unsigned, unsigned, x >> y, shift_ok(y))
  // [expr.bit.and], [expr.or], [expr.xor], [expr.unary.op]
  B(and_int, int, int, int, x & y, true)
  B(or_int, int, int, int, x | y, true)
  B(xor_uint, unsigned, unsigned, unsigned, x ^ y, true)
  U(compl_int, int, int, ~x, true)
  U(compl_uint, unsigned, unsigned, ~x, true)
  U(lnot_int, int, int, !x, true)
  // [expr.rel], [expr.eq] after the usual arithmetic conversions: int meets unsigned as unsigned.
  B(lt_int, int, int, int, x < y, true)
  B(lt_int_uint, int, unsigned, int, x < y, true)
  B(eq_int_uint, int, unsigned, int, x == y, true)
  B(ge_uint, unsigned, unsigned, int, x >= y, true)
  // [conv.prom]: operands narrower than int are promoted to int first.
  B(lt_char_uchar, char, unsigned char, int, x < y, true)
  B(add_uchar, unsigned char, unsigned char, int, x + y, true)
  B(sub_ushort, unsigned short, unsigned short, int, x - y, true)
  B(mul_ushort, unsigned short, unsigned short, int, x * y, true)
  B(mul_short, short, short, int, x * y, true)
  B(add_schar_narrowed, signed char, signed char, signed char, x + y, true)
  B(add_uchar_narrowed, unsigned char, unsigned char, unsigned char, x + y, true)
  B(mul_short_narrowed, short, short, short, x * y, true)
  B(shr_uchar_promoted, unsigned char, int, int, ~x >> y, shift_ok(y))
  // [expr.arith.conv]: int meets unsigned.
  B(add_int_uint, int, unsigned, unsigned, x + y, true)
  B(div_int_uint, int, unsigned, unsigned, x / y, y != 0)
  B(mod_int_uint, int, unsigned, unsigned, x % y, y != 0)
  B(ternary_int_uint, int, unsigned, unsigned, x < 0 ? x : y, true)
  B(bool_add, int, int, int, (bool)x + (bool)y, true)
  // [conv.integral], [conv.fpint], [conv.fpconv]: casts.
  U(int_to_float, int, float, (float)x, true)
  U(uint_to_float, unsigned, float, (float)x, true)
  U(float_to_int, float, int, (int)x, x > -2147483904.0f && x < 2147483648.0f)
  U(float_to_uint, float, unsigned, (unsigned)x, x > -1.0f && x < 4294967296.0f)
  U(float_to_short, float, short, (short)x, x > -32769.0f && x < 32768.0f)
  U(float_to_uchar, float, unsigned char, (unsigned char)x, x > -1.0f && x < 256.0f)
  U(int_to_uchar, int, unsigned char, (unsigned char)x, true)
  U(int_to_schar, int, signed char, (signed char)x, true)
  U(int_to_short, int, short, (short)x, true)
  U(int_to_ushort, int, unsigned short, (unsigned short)x, true)
  U(uint_to_int, unsigned, int, (int)x, true)
  U(char_to_uint, char, unsigned, (unsigned)x, true)
  U(uchar_to_int, unsigned char, int, (int)x, true)
  U(short_to_uint, short, unsigned, (unsigned)x, true)
  U(int_to_bool, int, int, (int)(bool)x, true)
  U(float_to_bool, float, int, (int)(bool)x, true)
  // CUDA Math API, integer intrinsics and overloads.
  U(clz, int, int, __clz(x), true)
  U(clz_uint, unsigned, int, __clz(x), true)
  U(ffs, int, int, __ffs(x), true)
  U(popc, unsigned, int, __popc(x), true)
  U(brev, unsigned, unsigned, __brev(x), true)
  B(min_int, int, int, int, min(x, y), true)
  B(max_int, int, int, int, max(x, y), true)
  B(min_uint, unsigned, unsigned, unsigned, min(x, y), true)
  B(max_uint, unsigned, unsigned, unsigned, max(x, y), true)
  B(max_int_uint, int, unsigned, unsigned, max(x, y), true)
  U(abs_int, int, int, abs(x), x != INT_MIN)
  std::printf("\n]\n");
  return 0;
}
