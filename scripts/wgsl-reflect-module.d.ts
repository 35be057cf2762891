// The ES module build of wgsl_reflect has the same exports as the package's typed root.
declare module 'wgsl_reflect/wgsl_reflect.module.js' {
  export * from 'wgsl_reflect';
}
