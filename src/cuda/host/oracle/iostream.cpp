// std::cout oracle (libstdc++): each line is
//   O <tab> manipulators <tab> type <tab> value <tab> = <tab> output
// value: integers in decimal, floating values as 16 hex digits of the double's bits, strings as text.
// manipulators: "-" none, "p<N>" setprecision(N), "f" fixed, "s" scientific, "b" boolalpha.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>

static void esc(const std::string &s) {
  for (unsigned char c : s) {
    if (c == '\\') std::fputs("\\\\", stdout);
    else if (c == '\t') std::fputs("\\t", stdout);
    else if (c == '\n') std::fputs("\\n", stdout);
    else if (c < 32 || c >= 127) std::printf("\\x%02x", c);
    else std::putchar(c);
  }
}
static void apply(std::ostream &os, const std::string &m) {
  size_t i = 0;
  while (i < m.size()) {
    char c = m[i++];
    if (c == 'p') { int n = 0; while (i < m.size() && m[i] >= '0' && m[i] <= '9') n = n * 10 + (m[i++] - '0'); os << std::setprecision(n); }
    else if (c == 'f') os << std::fixed;
    else if (c == 's') os << std::scientific;
    else if (c == 'b') os << std::boolalpha;
  }
}
static std::string enc(double v) { uint64_t b; std::memcpy(&b, &v, 8); char t[20]; std::snprintf(t, sizeof t, "%016llx", (unsigned long long)b); return t; }
static std::string enc(float v) { return enc((double)v); }
template <class T> static std::string enc(T v) { std::ostringstream o; o << +v; return o.str(); }
static std::string enc(const char *v) { return v; }

template <class T> static void out(const char *m, const char *type, T v) {
  std::ostringstream os;
  apply(os, m);
  os << v;
  std::printf("O\t%s\t%s\t", m, type);
  esc(enc(v));
  std::printf("\t=\t");
  esc(os.str());
  std::putchar('\n');
}

int main() {
  const int ints[] = {0, -1, 42, 2147483647, -2147483647 - 1};
  for (int v : ints) out("-", "int", v);
  out("-", "unsigned int", 4294967295u); out("-", "long", -9000000000L); out("-", "long long", 123456789012345LL);
  out("-", "unsigned long", 18446744073709551615UL); out("-", "short", (short)-5);
  const double ds[] = {0.0, -0.0, 1.0, 0.1, 1.0 / 3.0, 2.5, 100.0, 123456.0, 1234567.0, 0.0001, 0.00001, 1e100,
                       3.14159265358979, -2.0 / 3.0, 1e-300, 999999.5, 1e6, 65536.5};
  for (double v : ds) { out("-", "double", v); out("p3", "double", v); out("f", "double", v); out("fp2", "double", v);
    out("s", "double", v); out("p10", "double", v); }
  const float fs[] = {0.1f, 1.0f / 3.0f, 16777217.0f, 2.5f, 1e-10f, 3.4e38f};
  for (float v : fs) { out("-", "float", v); out("p9", "float", v); out("f", "float", v); }
  out("-", "double", 1.0 / 0.0); out("-", "double", -1.0 / 0.0); out("-", "double", 0.0 / 0.0 * -1.0 * -1.0);
  out("f", "double", 1.0 / 0.0);
  out("-", "char", 'A'); out("-", "char", '0'); out("-", "unsigned char", (unsigned char)66); out("-", "signed char", (signed char)67);
  out("-", "bool", true); out("-", "bool", false); out("b", "bool", true); out("b", "bool", false);
  out("-", "const char*", "hello, world"); out("-", "const char*", "");
  out("p0", "double", 2.5); out("p0", "double", 0.000123); out("p1", "double", 0.95); out("p20", "double", 0.1);
  out("fp0", "double", 2.5); out("fp0", "double", 3.5);
  return 0;
}
