// Host-side helpers shared by the oracle programs: each program prints one JSON document on
// stdout, which scripts/cuda-conformance-oracle.sh stores beside it (never edit the .json by hand).
//
// The programs are compiled with g++ -std=c++20 -fwrapv on x86-64 Linux: the same data model as
// CUDA device code on that host (char signed, int 32-bit, long 64-bit), C++20's modular
// conversions and shifts, and -fwrapv for the wrap-around that the GPU's 32-bit adds and
// multiplies give where ISO C++ leaves signed overflow undefined.
#pragma once
#include <climits>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <vector>

inline void json_string(const char* s) {
  std::putchar('"');
  for (; *s; ++s) {
    unsigned char c = static_cast<unsigned char>(*s);
    if (c == '"' || c == '\\') std::printf("\\%c", c);
    else if (c == '\n') std::printf("\\n");
    else if (c == '\t') std::printf("\\t");
    else if (c < 0x20) std::printf("\\u%04x", c);
    else std::putchar(c);
  }
  std::putchar('"');
}

// Opens the next object of a JSON array of cases: `{"name":"<name>"` (the caller closes it).
inline void json_open_case(const char* name) {
  static bool first = true;
  std::printf("%s\n  {\"name\":", first ? "" : ",");
  first = false;
  json_string(name);
}

template <class T> void json_value(T v) {
  if constexpr (std::is_same_v<T, bool>) std::printf("%d", v ? 1 : 0);
  else if constexpr (std::is_floating_point_v<T>) std::printf("%.9g", static_cast<double>(v));
  else if constexpr (std::is_signed_v<T>) std::printf("%lld", static_cast<long long>(v));
  else std::printf("%llu", static_cast<unsigned long long>(v));
}

template <class T> void json_array(const std::vector<T>& vs) {
  std::putchar('[');
  for (size_t i = 0; i < vs.size(); ++i) {
    if (i) std::putchar(',');
    json_value(vs[i]);
  }
  std::putchar(']');
}
