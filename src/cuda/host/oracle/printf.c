/* printf conformance oracle: every line is
 *   P <tab> format <tab> arg1 <tab> arg2 ... <tab> = <tab> output
 * where each argument is typed: i:int u:unsigned l:long ul:unsigned-long ll:long-long
 * ull:unsigned-long-long d:double-as-16-hex-bits s:string p:pointer-as-hex. */
#include "oracle.h"
#include <math.h>
#include <limits.h>
#include <float.h>

static char out[4096];
static char argbuf[8][512];
static int nargs;

static void a_i(int v) { sprintf(argbuf[nargs++], "i:%d", v); }
static void a_u(unsigned v) { sprintf(argbuf[nargs++], "u:%u", v); }
static void a_l(long v) { sprintf(argbuf[nargs++], "l:%ld", v); }
static void a_ul(unsigned long v) { sprintf(argbuf[nargs++], "ul:%lu", v); }
static void a_ll(long long v) { sprintf(argbuf[nargs++], "ll:%lld", v); }
static void a_ull(unsigned long long v) { sprintf(argbuf[nargs++], "ull:%llu", v); }
static void a_d(double v) { uint64_t b; memcpy(&b, &v, 8); sprintf(argbuf[nargs++], "d:%016llx", (unsigned long long)b); }
static void a_s(const char *v) { snprintf(argbuf[nargs++], 512, "s:%s", v); }
static void a_p(void *v) { sprintf(argbuf[nargs++], "p:%llx", (unsigned long long)(uintptr_t)v); }

#define ENC(x) _Generic((x), int: a_i, unsigned: a_u, long: a_l, unsigned long: a_ul, long long: a_ll, \
  unsigned long long: a_ull, float: a_d, double: a_d, char *: a_s, const char *: a_s, void *: a_p)(x)

static void emit(const char *fmt, int n) {
  fputs("P", stdout);
  put_field(fmt);
  for (int i = 0; i < nargs; i++) put_field(argbuf[i]);
  put_field("=");
  putchar('\t');
  put_escaped(out, (size_t)n);
  putchar('\n');
  nargs = 0;
}
#define C0(f) do { nargs = 0; emit(f, snprintf(out, sizeof out, f)); } while (0)
#define C1(f, a) do { nargs = 0; ENC(a); emit(f, snprintf(out, sizeof out, f, a)); } while (0)
#define C2(f, a, b) do { nargs = 0; ENC(a); ENC(b); emit(f, snprintf(out, sizeof out, f, a, b)); } while (0)
#define C3(f, a, b, c) do { nargs = 0; ENC(a); ENC(b); ENC(c); emit(f, snprintf(out, sizeof out, f, a, b, c)); } while (0)

/* One double through every floating conversion with a few flag/width/precision forms. */
static void floats(double v) {
  C1("%f", v); C1("%.0f", v); C1("%.2f", v); C1("%10.3f", v); C1("%-12.1f|", v); C1("%+f", v);
  C1("%e", v); C1("%.0e", v); C1("%.3E", v); C1("%g", v); C1("%.3g", v); C1("%#g", v); C1("%G", v);
  C1("%.10g", v); C1("%a", v);
}

int main(void) {
  /* integers */
  int ints[] = {0, 1, -1, 7, -42, 255, 1000000, INT_MAX, INT_MIN};
  for (unsigned k = 0; k < sizeof ints / sizeof *ints; k++) {
    int v = ints[k];
    C1("%d", v); C1("%i", v); C1("%5d", v); C1("%-5d|", v); C1("%05d", v); C1("%+d", v); C1("% d", v);
    C1("%.3d", v); C1("%8.3d", v); C1("%-+8.3d|", v); C1("%u", v); C1("%x", v); C1("%X", v); C1("%#x", v);
    C1("%o", v); C1("%#o", v); C1("%#08x", v); C1("%hhd", v); C1("%hd", v); C1("%hu", v);
  }
  C1("%.0d", 0); C1("%5.0d|", 0); C1("%#.0o", 0); C1("%#x", 0); C1("%+.0d", 0); C1("% 05d", 3); C1("%-05d|", 3);
  C2("%*d", 6, 42); C2("%-*d|", 6, 42); C2("%*d|", -6, 42); C2("%.*d", 4, 42); C2("%.*d", -1, 42);
  C3("%*.*d", 8, 5, -42); C2("%*s|", 7, "ab"); C2("%.*s|", 2, "abcdef");
  C1("%ld", 9223372036854775807L); C1("%ld", -9223372036854775807L - 1); C1("%lu", 18446744073709551615UL);
  C1("%lld", -1234567890123LL); C1("%llu", 18446744073709551615ULL); C1("%llx", 0xdeadbeefcafeULL);
  C1("%lx", -1L); C1("%lo", 8UL); C1("%zu", (unsigned long)sizeof(double)); C1("%zd", (long)-5);
  C1("%u", 4294967295u); C1("%u", 0u); C1("%x", 3735928559u); C1("%#X", 3735928559u); C1("%hhu", 300);
  C1("%hhx", -1); C1("%hx", 70000);
  /* characters and strings */
  C1("%c", 'A'); C1("%3c|", 'z'); C1("%-3c|", 'z'); C1("%c", 48); C1("%s", "hello"); C1("%10s|", "hello");
  C1("%-10s|", "hello"); C1("%.3s|", "hello"); C1("%10.2s|", "hello"); C1("%s", ""); C1("[%5s]", "");
  C0("100%%"); C0("plain text"); C2("%s=%d", "n", 1024); C3("%d/%d=%f", 7, 2, 3.5);
  /* pointers */
  C1("%p", (void *)0); C1("%p", (void *)0x7ffc1234abcdUL); C1("%20p|", (void *)0x1000); C1("%-20p|", (void *)0x1000);
  C1("%10p|", (void *)0);
  /* floating point: ordinary values, rounding ties, edge values */
  double vals[] = {0.0, -0.0, 1.0, -1.0, 0.5, 1.5, 2.5, -2.5, 0.125, 3.14159265358979, 1e-5, 123456.789, 1e21,
                   1e-300, 2.0 / 3.0, 1.0 / 3.0, 0.1, 9.9999996, 1e100, 5e-324, DBL_MAX, DBL_MIN, 1234567.0,
                   0.000123456, 100.0, 999999.5, 0.00001, 65536.0};
  for (unsigned k = 0; k < sizeof vals / sizeof *vals; k++) floats(vals[k]);
  C1("%f", INFINITY); C1("%F", INFINITY); C1("%e", -INFINITY); C1("%g", INFINITY); C1("%E", INFINITY);
  C1("%5f|", INFINITY); C1("%-6f|", -INFINITY); C1("%+f", INFINITY); C1("%010f", -INFINITY);
  C1("%f", NAN); C1("%F", NAN); C1("%g", NAN); C1("%e", -NAN); C1("%G", NAN); C1("%a", INFINITY); C1("%A", NAN);
  C1("%.1f", 0.25); C1("%.1f", 0.35); C1("%.1f", 0.45); C1("%.2f", 1.005); C1("%.0f", 0.5); C1("%.0f", 3.5);
  C1("%.0f", 4.5); C1("%.3e", 1.0005); C1("%.20f", 0.1); C1("%.30e", 1.0 / 3.0); C1("%.17g", 0.1);
  C1("%#.0f", 3.0); C1("%#.0e", 3.0); C1("%#.3g", 1.0); C1("%#x", 255); C1("%015.4f", -3.14159);
  C1("% .3f", 2.0); C1("%+.3e", 12345.678); C1("%-+12.4e|", -0.000123); C1("%012.3e", 1e10);
  C1("%g", 100000.0); C1("%g", 1000000.0); C1("%g", 0.0001); C1("%g", 0.00001); C1("%.0g", 123.0);
  C1("%.1g", 0.95); C1("%g", 123456789.0); C1("%.2a", 1.0); C1("%.1a", 1.96875); C1("%A", 255.5);
  C1("%lf", 2.5);
  C2("%.*f", 3, 2.0 / 3.0); C2("%*.2f|", 9, 1.0); C3("%*.*e", 12, 2, 31415.9);
  C3("sum=%d avg=%.2f name=%s", 10, 2.5, "x");
  /* glibc picks %g's style before rounding: these carry into a new digit */
  C1("%#.3g", 999.7); C1("%#.1g", 9.6); C1("%#.2g", 99.7); C1("%#g", 0.000099999999); C1("%.3g", 9.9996);
  return 0;
}
