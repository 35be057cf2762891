// Curve flattening with adaptive subdivision, in the manner of a 2-D renderer's pipeline: each
// invocation reads one segment (line, quadratic or cubic; f32 or packed i16 points), raises it to
// a cubic, subdivides it by halving until an angle-based error estimate is under the tolerance,
// and emits lines through a bump allocator, with a per-path bounding box kept by atomics.
struct Transform { mat: vec4f, translate: vec2f }
struct LineSoup { path_ix: u32, p0: vec2f, p1: vec2f }
struct Bump { failed: atomic<u32>, lines: atomic<u32> }
struct PathBox { x0: atomic<i32>, y0: atomic<i32>, x1: atomic<i32>, y1: atomic<i32>, flags: u32, count: u32 }
struct Config { n_segs: u32, lines_size: u32, tol: f32, style: u32 }
struct Cubic { p0: vec2f, p1: vec2f, p2: vec2f, p3: vec2f }
struct Estimate { th0: f32, th1: f32, chord: f32, err: f32 }

@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var<uniform> config: Config;
@group(0) @binding(2) var<storage> scene: array<u32>;
@group(0) @binding(3) var<storage, read_write> bump: Bump;
@group(0) @binding(4) var<storage, read_write> lines: array<LineSoup>;
@group(0) @binding(5) var<storage, read_write> boxes: array<PathBox>;

const SEG_LINE = 1u;
const SEG_QUAD = 2u;
const SEG_CUBIC = 3u;
const SEG_F32 = 8u;
const EPS: f32 = 1e-6;
const MIN_DT: f32 = 1.0 / 1024.0;
const HALF_PI = 1.5707963267948966;

var<private> bbox: vec4f;
var<private> base: u32;

fn apply(t: Transform, p: vec2f) -> vec2f { return t.mat.xy * p.x + t.mat.zw * p.y + t.translate; }

fn f32_point(k: u32) -> vec2f { return vec2(bitcast<f32>(scene[base + 1u + 2u * k]), bitcast<f32>(scene[base + 2u + 2u * k])); }
fn i16_point(k: u32) -> vec2f {
  let raw = scene[base + 1u + k];
  return vec2(f32(i32(raw << 16u) >> 16u), f32(i32(raw) >> 16u));
}

fn read_cubic(tag: u32) -> Cubic {
  var p: array<vec2f, 4>;
  let kind = tag & 3u;
  let count = select(select(4u, 3u, kind == SEG_QUAD), 2u, kind == SEG_LINE);
  for (var k = 0u; k < count; k++) {
    if (tag & SEG_F32) != 0u { p[k] = f32_point(k); } else { p[k] = i16_point(k) * 0.5; }
  }
  switch kind {
    case SEG_LINE: { p[3] = p[1]; p[2] = mix(p[3], p[0], 1.0 / 3.0); p[1] = mix(p[0], p[3], 1.0 / 3.0); }
    case SEG_QUAD: { p[3] = p[2]; p[2] = mix(p[1], p[2], 1.0 / 3.0); p[1] = mix(p[1], p[0], 1.0 / 3.0); }
    default: {}
  };
  return Cubic(p[0], p[1], p[2], p[3]);
}

fn eval(c: Cubic, t: f32) -> vec2f {
  let m = 1.0 - t;
  return c.p0 * (m * m * m) + (c.p1 * (3.0 * m * m) + c.p2 * (3.0 * m * t) + c.p3 * (t * t)) * t;
}
fn deriv(c: Cubic, t: f32) -> vec2f {
  let m = 1.0 - t;
  return (c.p1 - c.p0) * (m * m) + (c.p2 - c.p1) * (2.0 * m * t) + (c.p3 - c.p2) * (t * t);
}

fn estimate(p0: vec2f, p1: vec2f, q0: vec2f, q1: vec2f, dt: f32) -> Estimate {
  let chord = p1 - p0;
  let c2 = dot(chord, chord);
  if c2 < EPS * EPS {
    return Estimate(0.0, 0.0, EPS, sqrt((9.0 / 32.0) * (dot(q0, q0) + dot(q1, q1))) * dt);
  }
  let h0 = vec2(q0.x * chord.x + q0.y * chord.y, q0.y * chord.x - q0.x * chord.y);
  let h1 = vec2(q1.x * chord.x + q1.y * chord.y, q1.x * chord.y - q1.y * chord.x);
  let th0 = atan2(h0.y, h0.x);
  let th1 = atan2(h1.y, h1.x);
  var err = 2.0;
  if cos(th0) * cos(th1) >= 0.0 {
    let s = abs(th0 + th1);
    let a = abs(th0 - th1);
    err = (4.6e-3 * s * s + 7.5e-3 * a) * s + 0.05 * abs(sin(th0) - sin(th1));
  }
  return Estimate(th0, th1, sqrt(c2), err * sqrt(c2));
}

fn write_line(ix: u32, path_ix: u32, p0: vec2f, p1: vec2f) {
  bbox = vec4(min(bbox.xy, min(p0, p1)), max(bbox.zw, max(p0, p1)));
  if ix < config.lines_size { lines[ix] = LineSoup(path_ix, p0, p1); } else { atomicOr(&bump.failed, 1u); }
}

fn flatten_piece(path_ix: u32, e: Estimate, p0: vec2f, p1: vec2f, t: Transform) -> u32 {
  // Lines per piece grow with the turning angle; a rotation matrix walks the arc.
  let turn = abs(e.th1 - e.th0);
  let n = u32(clamp(ceil(pow(turn + 1e-3, 0.75) * 4.0 * sqrt(e.chord / config.tol) * 0.125), 1.0, 16.0));
  let ix = atomicAdd(&bump.lines, n);
  let ang = turn / f32(n) * sign(e.th1 - e.th0);
  let rot = mat2x2(cos(ang), -sin(ang), sin(ang), cos(ang));
  var d = (p1 - p0) / f32(n);
  var q = apply(t, p0);
  var at = p0;
  for (var i = 0u; i < n; i += 1u) {
    at += d;
    d = rot * d;
    let nq = select(apply(t, at), apply(t, p1), i + 1u == n);
    write_line(ix + i, path_ix, q, nq);
    q = nq;
  }
  return n;
}

@compute @workgroup_size(32)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let ix = gid.x;
  if ix >= config.n_segs { return; }
  base = ix * 9u;
  bbox = vec4(1e31, 1e31, -1e31, -1e31);
  let tag = scene[base];
  let path_ix = (tag >> 8u) & 0xffu;
  let t = Transform(vec4(1.0, 0.125 * f32(tag >> 16u), -0.125 * f32(tag >> 16u), 1.0), vec2(0.5, -3.0));
  let box = &boxes[path_ix];
  if (tag & 0x80u) != 0u { (*box).flags = tag; }
  let c = read_cubic(tag);
  if all(c.p0 == c.p1) && all(c.p0 == c.p2) && all(c.p0 == c.p3) { return; }
  var t0_u = 0u;
  var dt = 1.0;
  var last_p = c.p0;
  var last_q = deriv(c, 0.0);
  if dot(last_q, last_q) < EPS * EPS { last_q = deriv(c, EPS); }
  var total = 0u;
  loop {
    let t0 = f32(t0_u) * dt;
    if t0 == 1.0 { break; }
    let t1 = t0 + dt;
    let p1 = eval(c, t1);
    let q1 = deriv(c, t1);
    let e = estimate(last_p, p1, last_q, q1, dt);
    if e.err <= config.tol || dt <= MIN_DT {
      total += flatten_piece(path_ix, e, last_p, p1, t);
      last_p = p1;
      last_q = q1;
      t0_u += 1u;
      let shift = countTrailingZeros(t0_u);
      t0_u >>= shift;
      dt *= f32(1u << shift);
    } else {
      t0_u = t0_u * 2u;
      dt *= 0.5;
    }
  }
  if bbox.z > bbox.x || bbox.w > bbox.y {
    atomicMin(&(*box).x0, i32(floor(bbox.x)));
    atomicMin(&(*box).y0, i32(floor(bbox.y)));
    atomicMax(&(*box).x1, i32(ceil(bbox.z)));
    atomicMax(&(*box).y1, i32(ceil(bbox.w)));
  }
  out[ix] = total;
}
