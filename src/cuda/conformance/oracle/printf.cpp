// Oracle for kernel printf formatting: the CUDA Programming Guide's printf follows the C
// library's format specification (floats promoted to double, as for any variadic call), so
// glibc's own printf over the same arguments gives the expected text. Each entry's argument list
// is printed as written (`args`); the conformance case pastes it into `printf(...)` in a kernel
// whose locals (PREAMBLE) are the ones declared here.
#include "emit.h"

#define PREAMBLE \
  int i = -42;                                                                                    \
  unsigned u = 3000000000u;                                                                        \
  float f = 3.14159f;                                                                              \
  char c = 'A';                                                                                    \
  float zero = 0.0f;

static void emit(const char* name, const char* args, const char* out) {
  json_open_case(name);
  std::printf(",\"args\":");
  json_string(args);
  std::printf(",\"out\":");
  json_string(out);
  std::printf("}");
}

#define P(name, ...)                                  \
  {                                                   \
    char buf[512];                                    \
    std::snprintf(buf, sizeof buf, __VA_ARGS__);      \
    emit(#name, #__VA_ARGS__, buf);                   \
  }

#define STR(x) #x
#define XSTR(x) STR(x)

int main() {
  PREAMBLE
  std::printf("{\"preamble\":");
  json_string(XSTR(PREAMBLE));
  std::printf(",\"cases\":[");
  P(d, "%d\n", i)
  P(d_flags, "[%5d|%-5d|%05d|%+d|% d]\n", i, i, 42, 7, 7)
  P(i_conversion, "%i %i\n", i, 0)
  P(u, "%u\n", u)
  P(x, "%x %X %#x %08x\n", u, u, 255u, 48879u)
  P(o, "%o\n", 8u)
  P(c, "%c%c%c\n", c, 'b', 67)
  P(s, "%s, %s!\n", "hello", "warp")
  P(s_width, "[%6s|%-6s|%.2s]\n", "ab", "ab", "abcdef")
  P(percent, "100%% of %d\n", 32)
  P(f, "%f\n", f)
  P(f_precision, "%.2f|%8.3f|%-8.1f|%.0f\n", f, f, f, f)
  P(f_negative, "%f %.1f\n", -0.5f, -2.25f)
  P(f_round_half_even, "%.0f %.0f %.0f\n", 0.5f, 2.5f, 3.5f)
  P(e, "%e %.3E\n", f, 12345.678f)
  P(g, "%g %g %g %g\n", f, 1e-5f, 1234567.0f, 100.0f)
  P(f_infinity, "%f %f\n", 1.0f / zero, -1.0f / zero)
  P(f_large, "%.1f\n", 16777216.0f)
  P(mixed, "thread %d of %d: %.1f (%s)\n", 3, 8, 0.5f, "ok")
  P(several_lines, "a=%d\nb=%d\n", 1, 2)
  std::printf("\n]}\n");
  return 0;
}
