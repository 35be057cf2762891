// Flattening of cubic Béziers into line segments, in the manner of a 2-D renderer's GPU pipeline:
// path tags packed four to a word, points as f32 pairs or as packed i16 pairs, a per-path affine
// transform, a bump allocator for the output lines and atomic bounding boxes per path.
struct Transform { matrx: vec4f, translate: vec2f }
struct LineSoup { path_ix: u32, p0: vec2f, p1: vec2f }
struct Bump { failed: atomic<u32>, lines: atomic<u32> }
struct PathBox { x0: atomic<i32>, y0: atomic<i32>, x1: atomic<i32>, y1: atomic<i32> }
struct Config { n_segs: u32, tolerance: f32, @align(16) pad: u32 }

@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var<uniform> config: Config;
@group(0) @binding(2) var<storage, read> scene: array<u32>;
@group(0) @binding(3) var<storage, read_write> bump: Bump;
@group(0) @binding(4) var<storage, read_write> lines: array<LineSoup>;
@group(0) @binding(5) var<storage, read_write> boxes: array<PathBox>;

const MAX_SUBDIV: u32 = 16u;
const SEG_WORDS = 9u;

fn transform_apply(t: Transform, p: vec2f) -> vec2f {
  return t.matrx.xy * p.x + t.matrx.zw * p.y + t.translate;
}

fn read_point(base: u32, k: u32, packed: bool) -> vec2f {
  if (packed) {
    let raw = scene[base + 1u + k];
    let x = f32(i32(raw << 16u) >> 16u);
    let y = f32(i32(raw) >> 16u);
    return vec2f(x, y) * 0.25;
  }
  return vec2f(bitcast<f32>(scene[base + 1u + 2u * k]), bitcast<f32>(scene[base + 2u + 2u * k]));
}

fn eval_cubic(p0: vec2f, p1: vec2f, p2: vec2f, p3: vec2f, t: f32) -> vec2f {
  let mt = 1.0 - t;
  return p0 * (mt * mt * mt) + (p1 * (mt * mt * 3.0) + (p2 * (mt * 3.0) + p3 * t) * t) * t;
}

fn subdivisions(p0: vec2f, p1: vec2f, p2: vec2f, p3: vec2f, tol: f32) -> u32 {
  let dd = max(abs(p0 - 2.0 * p1 + p2), abs(p1 - 2.0 * p2 + p3));
  let d = sqrt(dot(dd, dd));
  let n = u32(ceil(sqrt(d * 0.75 / tol)));
  return clamp(n, 1u, MAX_SUBDIV);
}

fn update_box(ix: u32, p: vec2f) {
  atomicMin(&boxes[ix].x0, i32(floor(p.x)));
  atomicMin(&boxes[ix].y0, i32(floor(p.y)));
  atomicMax(&boxes[ix].x1, i32(ceil(p.x)));
  atomicMax(&boxes[ix].y1, i32(ceil(p.y)));
}

@compute @workgroup_size(32)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let ix = gid.x;
  if (ix >= config.n_segs) { return; }
  let base = ix * SEG_WORDS;
  let tag_word = scene[base];
  let tag = tag_word & 0xffu;
  let path_ix = (tag_word >> 8u) & 0xffu;
  let packed = (tag & 0x8u) != 0u;
  let t = Transform(vec4f(1.0, 0.25, -0.25, 1.0) * f32(1u + (tag_word >> 16u)), vec2f(0.5, -3.0));
  var pts: array<vec2f, 4>;
  for (var k = 0u; k < 4u; k++) { pts[k] = transform_apply(t, read_point(base, k, packed)); }
  let n = select(1u, subdivisions(pts[0], pts[1], pts[2], pts[3], config.tolerance), (tag & 3u) == 3u);
  let first = atomicAdd(&bump.lines, n);
  var p0 = pts[0];
  update_box(path_ix, p0);
  for (var j = 1u; j <= n; j++) {
    let p1 = select(eval_cubic(pts[0], pts[1], pts[2], pts[3], f32(j) / f32(n)), pts[3], j == n);
    update_box(path_ix, p1);
    let li = first + j - 1u;
    if (li < arrayLength(&lines)) {
      lines[li] = LineSoup(path_ix, p0, p1);
    } else {
      atomicOr(&bump.failed, 1u);
    }
    p0 = p1;
  }
  out[ix] = n;
}
