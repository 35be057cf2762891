/* Shared by the oracle programs: each case prints one line, fields separated by tabs, every field
 * escaped (\\, \t, \n, and bytes outside printable ASCII as \xHH) so the TypeScript tests can read
 * the line back exactly. glibc and gcc are the oracle; never edit the .out files by hand. */
#include <stdio.h>
#include <string.h>
#include <stdint.h>

static void put_escaped(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '\\') fputs("\\\\", stdout);
    else if (c == '\t') fputs("\\t", stdout);
    else if (c == '\n') fputs("\\n", stdout);
    else if (c < 32 || c >= 127) printf("\\x%02x", c);
    else putchar(c);
  }
}
static void put_field(const char *s) { putchar('\t'); put_escaped(s, strlen(s)); }
