/**
 * Cases that fail today because the translator (src/cuda, branch cuda-front) is wrong or
 * incomplete — never because an expectation was bent. Each id maps to the executors it fails on
 * and why (as of the last merge of cuda-front, 2026-11-26 23:12 UTC, commit c706f88). The runners
 * mark these `it.fails`: the suite stays green, and a case that starts passing turns red until
 * its line here is deleted.
 */
export interface KnownFailure {
  /** Fails on the simulator (conformance.test.ts). */
  readonly sim?: string;
  /** Fails on Dawn (conformance.gpu.test.ts). */
  readonly dawn?: string;
}

const INTERNAL = 'the generated WGSL is rejected (an internal error)';
const BOTH = (why: string): KnownFailure => ({ sim: why, dawn: why });
/** Error cases never reach an executor: they run on the simulator's runner only. */
const COMPILE = (why: string): KnownFailure => ({ sim: why });

export const KNOWN_FAILURES: Readonly<Record<string, KnownFailure>> = {
  // functions
  'cuda:functions:device_function_pointer_out_params': BOTH('&local passed to a device function is refused ("taking the address of a local variable is not supported")'),
  'cuda:functions:reference_parameters': BOTH('reference parameters (int&) are refused'),
  'cuda:functions:struct_by_value_and_returned': BOTH('a braced initialiser `Range r = { 10, 20 };` is refused'),
  'cuda:functions:struct_pointer_kernel_parameter': BOTH('a kernel parameter pointing to structs is refused ("kernels here take pointers to numbers")'),
  'cuda:functions:overloaded_device_functions': BOTH('overloads by parameter type: the float call resolves to the int overload (results truncated, with a conversion warning)'),
  // builtins
  // types
  'cuda:types:typedef_using_auto_const': BOTH('`using real = float;` and `auto` are not understood'),
  'cuda:types:unsigned_long_long_beyond_32_bits': BOTH(`64-bit integers are computed in 32 bits (warned), and acc >> 32 gives ${INTERNAL} plus a wrong "shift count >= width" warning for a 64-bit operand`),
  'cuda:types:long_long_product': BOTH(`64-bit integers are computed in 32 bits (warned), and p >> 32 gives ${INTERNAL}`),
  // memory
  'cuda:memory:static_shared_over_48k': COMPILE(`64 KB of static __shared__ is reported as ${INTERNAL} at 1:19, not at the declaration`),
  // sync
  'cuda:sync:barrier_after_early_return': { sim: 'the threads that returned still load in[i] for i >= n (the simulator reports out-of-bounds reads at index 100…127); Dawn clamps them silently and matches' },
  'cuda:sync:barrier_in_loop_after_early_return': BOTH(`barriers in a loop after an early return: ${INTERNAL}: "workgroupBarrier must only be called from uniform control flow"`),
  'cuda:sync:double_buffered_phases': BOTH('a pointer moved from one __shared__ array to another (double buffering) is refused'),
  // warp
  'cuda:warp:shuffle_with_partial_mask': BOTH('a warning that lanes outside the mask 0x0000ffff take part, on a kernel CUDA defines (only lanes 0–15 call it); the values are right'),
  // math
  // On Dawn (SwiftShader): expf and logf become WGSL exp and log, whose accuracy and edge cases
  // WGSL leaves looser than the CUDA Math API states, and WGSL lets an implementation assume no NaN.
  'cuda:math:float_function:fn="expf"': { dawn: 'expf(80) and expf(-87) are about 3.6e-7 off (several ulp; CUDA: at most 2): WGSL exp allows 3 + 2·|x| ulp' },
  'cuda:math:float_function:fn="logf"': { dawn: 'logf(0) gives -88.03 instead of -inf and logf(-1) gives 0 instead of NaN: WGSL log leaves x <= 0 indeterminate' },
  'cuda:math:float_compare_nan': { dawn: 'nan != nan gives false: WGSL lets the implementation assume no NaN, and SwiftShader does' },
  // operators
  'cuda:operators:short_circuit_side_effects': BOTH('++ on the right of || and && is refused ("would run even when || skips it")'),
  'cuda:operators:comma_and_chained_assignment': BOTH(`two variables stepped in one for (++lo, --hi): ${INTERNAL}`),
  // control
  // printf
  // preprocessor
};
