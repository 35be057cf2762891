/* C arithmetic oracle (gcc on x86-64, where char is signed, int 32-bit, long 64-bit):
 *   B <tab> type-a <tab> a <tab> op <tab> type-b <tab> b <tab> = <tab> result-type <tab> result
 *   C <tab> to-type <tab> from-type <tab> value <tab> = <tab> result            (a conversion)
 *   U <tab> op <tab> type <tab> value <tab> = <tab> result-type <tab> result    (a unary operator)
 *   S <tab> struct <tab> sizeof <tab> alignof <tab> offsets...                  (struct layout)
 * Operands go through volatile variables so gcc computes at run time, as the machine does.
 * Integers print in decimal; floating values as %a (exact). */
#include <stdio.h>
#include <stddef.h>
#include <stdbool.h>

#define TNAME(x) _Generic((x), _Bool: "bool", char: "char", signed char: "signed char", unsigned char: "unsigned char", \
  short: "short", unsigned short: "unsigned short", int: "int", unsigned: "unsigned int", long: "long", \
  unsigned long: "unsigned long", long long: "long long", unsigned long long: "unsigned long long", \
  float: "float", double: "double")
#define ISFLT(x) _Generic((x), float: 1, double: 1, default: 0)
#define ISUNS(x) _Generic((x), _Bool: 1, unsigned char: 1, unsigned short: 1, unsigned: 1, unsigned long: 1, \
  unsigned long long: 1, default: 0)
#define PV(x) do { __typeof__(x) v_ = (x); \
  if (ISFLT(v_)) printf("%a", (double)v_); \
  else if (ISUNS(v_)) printf("%llu", (unsigned long long)v_); \
  else printf("%lld", (long long)v_); } while (0)

#define BIN(TA, A, OP, TB, B) do { volatile TA a_ = (TA)(A); volatile TB b_ = (TB)(B); \
  printf("B\t%s\t", #TA); PV(a_); printf("\t%s\t%s\t", #OP, #TB); PV(b_); \
  printf("\t=\t%s\t", TNAME(a_ OP b_)); PV(a_ OP b_); putchar('\n'); } while (0)
#define CONV(TO, FROM, V) do { volatile FROM f_ = (FROM)(V); printf("C\t%s\t%s\t", #TO, #FROM); PV(f_); \
  printf("\t=\t"); PV((TO)f_); putchar('\n'); } while (0)
#define UN(OP, T, V) do { volatile T v2_ = (T)(V); printf("U\t%s\t%s\t", #OP, #T); PV(v2_); \
  printf("\t=\t%s\t", TNAME(OP v2_)); PV(OP v2_); putchar('\n'); } while (0)

struct A { char c; int i; };
struct B { char c; double d; short s; };
struct C { int x, y, z; };
struct D { char a, b, c; };
struct E { float f; char c; long long l; char t; };
struct F { unsigned char u; short s; char c; int i; };
struct G { double d; char c; };
struct H { int n; float *p; char tag; };
#define LAYOUT(S, ...) do { printf("S\t%s\t%zu\t%zu\t", #S, sizeof(struct S), _Alignof(struct S)); \
  size_t o_[] = {__VA_ARGS__}; for (size_t k = 0; k < sizeof o_ / sizeof *o_; k++) printf(k ? " %zu" : "%zu", o_[k]); \
  putchar('\n'); } while (0)

int main(void) {
  /* signed and unsigned wrap-around, division and remainder on negatives */
  BIN(int, 2147483647, +, int, 0); BIN(unsigned, 4294967295u, +, unsigned, 1); BIN(unsigned, 0, -, unsigned, 1);
  BIN(unsigned, 3, *, unsigned, 2863311531u); BIN(int, -7, /, int, 2); BIN(int, -7, %, int, 2);
  BIN(int, 7, /, int, -2); BIN(int, 7, %, int, -2); BIN(int, -7, %, int, -2); BIN(int, -8, >>, int, 1);
  BIN(int, -1, >>, int, 31); BIN(unsigned, 2147483648u, >>, int, 31); BIN(int, 1, <<, int, 30);
  BIN(unsigned, 1, <<, int, 31); BIN(long long, 1, <<, int, 40); BIN(int, 255, &, int, -256);
  BIN(int, 5, ^, int, -1); BIN(int, 12, |, int, 3); BIN(long, -9, /, long, 4); BIN(long, -9, %, long, 4);
  BIN(unsigned long long, 0, -, int, 1); BIN(long long, 9223372036854775807LL, /, long long, -1);
  /* the usual arithmetic conversions */
  BIN(unsigned, 1, <, int, -1); BIN(int, -1, <, unsigned, 1); BIN(long, -1, <, unsigned, 1);
  BIN(unsigned long, 1, >, int, -1); BIN(unsigned, 10, -, int, 20); BIN(int, -1, +, unsigned, 0);
  BIN(unsigned, 7, /, int, -2); BIN(int, -7, /, unsigned, 2); BIN(int, -1, *, unsigned long, 1);
  BIN(long, 5, -, unsigned, 10); BIN(long long, -3, %, unsigned, 2); BIN(int, -6, /, long, 4);
  BIN(unsigned char, 200, +, unsigned char, 100); BIN(char, 100, +, char, 100); BIN(short, 30000, +, short, 30000);
  BIN(unsigned short, 65535, +, int, 1); BIN(char, -1, ==, unsigned char, 255); BIN(unsigned char, 255, ==, int, 255);
  BIN(unsigned char, 1, -, unsigned char, 2); BIN(bool, 1, +, bool, 1); BIN(char, 'a', +, int, 1);
  BIN(int, 3, /, float, 2); BIN(int, 7, /, double, 2); BIN(float, 0.1, +, double, 0.2); BIN(float, 0.1, +, float, 0.2);
  BIN(float, 16777216, +, float, 1); BIN(double, 16777216, +, double, 1); BIN(float, 1, /, float, 3);
  BIN(double, 1, /, double, 3); BIN(float, 1, /, float, 0); BIN(double, -1, /, double, 0); BIN(float, 0.1, *, int, 3);
  BIN(unsigned, 4000000000u, +, float, 0); BIN(long long, 9007199254740993LL, +, double, 0);
  BIN(int, 2147483647, +, long long, 1); BIN(unsigned, 5, %, unsigned, 3); BIN(float, 5.5, <, int, 6);
  BIN(double, 3.0, ==, float, 3.0); BIN(float, 0.1, ==, double, 0.1); BIN(int, 1000000, *, int, 1000);
  BIN(long long, 1000000, *, int, 1000000); BIN(size_t, 3, -, int, 5); BIN(int, 1 << 20, *, int, 4);
  /* conversions: truncation, wrap-around, char signedness, float to integer toward zero */
  CONV(char, int, 200); CONV(signed char, int, 128); CONV(unsigned char, int, -1); CONV(unsigned char, int, 256 + 7);
  CONV(short, int, 40000); CONV(unsigned short, int, -2); CONV(int, unsigned, 4294967295u);
  CONV(int, long long, 4294967296LL + 5); CONV(unsigned, long long, -1); CONV(int, unsigned, 2147483648u);
  CONV(long long, unsigned long long, 18446744073709551615ull); CONV(unsigned long long, int, -1);
  CONV(int, double, 3.99); CONV(int, double, -3.99); CONV(int, float, 2.5f); CONV(int, double, -0.5);
  CONV(unsigned, double, 4294967295.0); CONV(long long, double, -1e15); CONV(unsigned char, double, 255.9);
  CONV(int, double, 1e10); CONV(int, double, -1e10); CONV(int, float, 2147483648.0f); CONV(float, double, 0.1);
  CONV(float, int, 16777217); CONV(float, unsigned, 4294967295u); CONV(double, long long, 9007199254740993LL);
  CONV(float, double, 1e39); CONV(float, double, 1e-46); CONV(bool, int, 2); CONV(bool, double, 0.1);
  CONV(bool, double, -0.0); CONV(char, double, 65.7); CONV(unsigned, float, 1e10f);
  /* unary operators: promotion, negation of unsigned, bitwise not */
  UN(-, unsigned, 1); UN(~, int, 0); UN(~, unsigned char, 0); UN(-, unsigned char, 1); UN(!, int, 5);
  UN(-, int, -2147483647 - 1); UN(~, unsigned, 0); UN(-, char, -128); UN(+, char, 'x'); UN(-, float, 0.0f);
  UN(!, double, 0.0); UN(-, unsigned long long, 1); UN(~, long, 0); UN(-, short, -32768);
  /* struct layout */
  LAYOUT(A, offsetof(struct A, c), offsetof(struct A, i));
  LAYOUT(B, offsetof(struct B, c), offsetof(struct B, d), offsetof(struct B, s));
  LAYOUT(C, offsetof(struct C, x), offsetof(struct C, y), offsetof(struct C, z));
  LAYOUT(D, offsetof(struct D, a), offsetof(struct D, b), offsetof(struct D, c));
  LAYOUT(E, offsetof(struct E, f), offsetof(struct E, c), offsetof(struct E, l), offsetof(struct E, t));
  LAYOUT(F, offsetof(struct F, u), offsetof(struct F, s), offsetof(struct F, c), offsetof(struct F, i));
  LAYOUT(G, offsetof(struct G, d), offsetof(struct G, c));
  LAYOUT(H, offsetof(struct H, n), offsetof(struct H, p), offsetof(struct H, tag));
  return 0;
}
