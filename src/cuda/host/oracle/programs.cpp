// Whole-program oracle: pointer arithmetic, std::vector and std::cout chains as a course program
// writes them. g++ on x86-64 runs it (scripts/cuda-host-oracle.sh stores programs.out); the host
// interpreter runs the very same text (programs.test.ts), line by line against that output.
// Every line is `name: value`, so a failing case names itself.
#include <cstdio>
#include <cstring>
#include <iostream>
#include <vector>
using namespace std;

struct Point {
    int x;
    float y;
    char tag;
};

int sum(const int *p, int n) {
    int s = 0;
    for (const int *q = p; q < p + n; q++) s += *q;
    return s;
}

void fill(vector<int> &v, int base) {
    for (size_t i = 0; i < v.size(); i++) v[i] = base + (int)i;
}

int main() {
    // Pointer arithmetic.
    int a[8] = {10, 11, 12, 13, 14, 15, 16, 17};
    int *p = a;
    int *q = &a[5];
    printf("ptr.deref-offset: %d\n", *(p + 3));
    printf("ptr.index: %d\n", p[6]);
    printf("ptr.index-commuted: %d\n", 2[a]);
    printf("ptr.difference: %ld\n", (long)(q - p));
    printf("ptr.difference-negative: %ld\n", (long)(p - q));
    printf("ptr.less: %d\n", p < q);
    printf("ptr.equal-after-add: %d\n", p + 5 == q);
    printf("ptr.post-increment: %d\n", *p++);
    printf("ptr.after-post-increment: %d\n", *p);
    printf("ptr.pre-increment: %d\n", *++p);
    printf("ptr.compound-add: %d\n", *(p += 3));
    printf("ptr.decrement: %d\n", *--q);
    printf("ptr.bytes-between: %ld\n", (long)((char *)q - (char *)a));
    printf("ptr.sum-range: %d\n", sum(a + 2, 4));
    printf("ptr.array-size: %ld\n", (long)(sizeof(a) / sizeof(a[0])));
    int m[3][4];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++) m[i][j] = i * 10 + j;
    int *flat = &m[0][0];
    printf("ptr.2d-flat: %d\n", flat[2 * 4 + 3]);
    printf("ptr.2d-row: %d\n", *(m[1] + 2));
    printf("ptr.2d-row-size: %ld\n", (long)sizeof(m[0]));
    char s[] = "warpscope";
    char *c = s + 4;
    printf("ptr.char-string: %s\n", c);
    printf("ptr.char-strlen: %ld\n", (long)strlen(c));
    printf("ptr.char-sizeof: %ld\n", (long)sizeof(s));
    printf("ptr.char-arith: %c\n", *(s + 1) + 1);
    Point pts[3] = {{1, 1.5f, 'a'}, {2, 2.5f, 'b'}, {3, 3.5f, 'c'}};
    Point *pp = pts + 1;
    printf("ptr.struct-member: %d %.1f %c\n", pp->x, pp->y, pp->tag);
    printf("ptr.struct-next: %d\n", (pp + 1)->x);
    printf("ptr.struct-sizeof: %ld\n", (long)sizeof(Point));
    printf("ptr.struct-bytes: %ld\n", (long)((char *)(pp + 1) - (char *)pp));
    int *np = NULL;
    printf("ptr.null-false: %d\n", np ? 1 : 0);
    unsigned char bytes[4] = {0x78, 0x56, 0x34, 0x12};
    unsigned int word;
    memcpy(&word, bytes, 4);
    printf("ptr.memcpy-little-endian: %x\n", word);
    int *heap = new int[5];
    for (int i = 0; i < 5; i++) heap[i] = i * i;
    printf("ptr.new-array: %d %d\n", heap[2], *(heap + 4));
    delete[] heap;

    // std::vector.
    vector<int> v;
    printf("vec.empty-new: %d\n", (int)v.empty());
    for (int i = 0; i < 5; i++) v.push_back(i * 3);
    printf("vec.size: %ld\n", (long)v.size());
    printf("vec.index: %d\n", v[3]);
    printf("vec.front-back: %d %d\n", v.front(), v.back());
    printf("vec.at: %d\n", v.at(1));
    v.pop_back();
    printf("vec.pop-back-size: %ld\n", (long)v.size());
    v.resize(7);
    printf("vec.resize-grow: %ld %d %d\n", (long)v.size(), v[5], v[6]);
    v.resize(2);
    printf("vec.resize-shrink: %ld %d\n", (long)v.size(), v[1]);
    vector<int> w(4, 9);
    printf("vec.fill-ctor: %d %d %ld\n", w[0], w[3], (long)w.size());
    vector<int> copy = w;
    copy[0] = 1;
    printf("vec.copy-independent: %d %d\n", w[0], copy[0]);
    fill(w, 100);
    printf("vec.by-reference: %d %d\n", w[0], w[3]);
    int total = 0;
    for (size_t i = 0; i < w.size(); i++) total += w[i];
    printf("vec.sum-loop: %d\n", total);
    int *d = w.data();
    printf("vec.data: %d\n", d[2]);
    vector<vector<int>> grid(3, vector<int>(2, 7));
    grid[1][0] = 5;
    printf("vec.nested: %d %d %ld %ld\n", grid[1][0], grid[2][1], (long)grid.size(), (long)grid[0].size());
    vector<float> fv = {1.5f, 2.25f};
    printf("vec.init-list: %.2f %.2f\n", fv[0], fv[1]);
    w.clear();
    printf("vec.clear: %ld %d\n", (long)w.size(), (int)w.empty());

    // std::cout chains.
    int k = 6;
    cout << "cout.chain: " << k << "\t" << k + 1 << endl;
    cout << "cout.float: " << 1.5f << " " << 0.1 << " " << 1e7 << " " << 123456789.0 << endl;
    cout << "cout.char: " << 'x' << " " << (char)65 << endl;
    cout << "cout.bool: " << true << " " << (3 > 4) << endl;
    cout << "cout.negative: " << -42 << " " << -0.5 << endl;
    cout << "cout.unsigned: " << 4294967295u << " " << (unsigned char)66 << endl;
    cout << "cout.long: " << 9007199254740993L << endl;
    cout << "cout.vector-loop:";
    for (size_t i = 0; i < fv.size(); i++) cout << " " << fv[i];
    cout << endl;
    cout << "cout.then-printf: a" << endl;
    printf("cout.printf-order: b\n");

    // Range-based for (C++11 [stmt.ranged]) over arrays and vectors.
    int ra[5] = {3, 1, 4, 1, 5};
    int rsum = 0;
    for (int x : ra) rsum += x;
    printf("range.array-value: %d\n", rsum);
    for (int &x : ra) x *= 10;
    printf("range.array-reference: %d %d\n", ra[0], ra[4]);
    for (int x : ra) { x = 0; rsum += x; }
    printf("range.copy-leaves-array: %d\n", ra[2]);
    for (auto &x : ra) x += 1;
    printf("range.auto-reference: %d %d\n", ra[1], ra[3]);
    double dsum = 0;
    for (double d : ra) dsum += d / 4;
    printf("range.converted: %.2f\n", dsum);
    vector<int> rv = {2, 7, 1, 8, 2, 8};
    long rvs = 0;
    for (const auto &x : rv) rvs = rvs * 10 + x;
    printf("range.vector-const-ref: %ld\n", rvs);
    for (auto &x : rv) x = x * x;
    printf("range.vector-reference: %d %d\n", rv[1], rv[5]);
    int seen = 0;
    for (int x : rv) {
        if (x == 1) continue;
        if (x == 64) break;
        seen += x;
    }
    printf("range.break-continue: %d\n", seen);
    int m2[2][3] = {{1, 2, 3}, {4, 5, 6}};
    int rows = 0;
    for (auto &row : m2) {
        int r = 0;
        for (int x : row) r += x;
        rows = rows * 100 + r;
    }
    printf("range.rows: %d\n", rows);
    Point rp[2] = {{1, 1.5f, 'a'}, {2, 2.5f, 'b'}};
    for (Point &p : rp) p.x += 40;
    float ry = 0;
    for (Point p : rp) ry += p.y;
    printf("range.structs: %d %d %.1f\n", rp[0].x, rp[1].x, ry);
    vector<vector<int>> rg(2, vector<int>(3, 2));
    int rgs = 0;
    for (auto &inner : rg)
        for (auto &x : inner) rgs += x;
    printf("range.nested-vectors: %d\n", rgs);
    char cword[] = "cuda";
    int codes = 0;
    for (char c : cword) codes += c;
    printf("range.char-array-with-nul: %d %ld\n", codes, (long)sizeof cword);
    vector<float> empty;
    int none = 0;
    for (float f : empty) none += (int)f + 1;
    printf("range.empty: %d\n", none);

    // Bytes over 0x7f written one at a time: a terminal decodes them together as UTF-8.
    cout << "bytes.cout-chars: " << (char)0xC3 << (char)0xA9 << endl;
    cout << "bytes.cout-unsigned: " << (unsigned char)0xE4 << (unsigned char)0xB8 << (unsigned char)0x96 << endl;
    printf("bytes.printf-c: %c%c|%3c|\n", 0xC3, 0xA9, 'x');
    printf("bytes.putchar: ");
    putchar(0xE2); putchar(0x82); putchar(0xAC); putchar('\n');
    char made[8];
    int made_n = sprintf(made, "%c%c!", 0xC3, 0xB6);
    printf("bytes.sprintf: %d %ld %s\n", made_n, (long)strlen(made), made);
    cout << "bytes.cout-string: " << "h\xC3\xA9 \xE4\xB8\x96" << endl;
    cout << "bytes.cout-lone: [" << (char)0xC8 << "]" << endl;
    return 0;
}
