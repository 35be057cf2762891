// Recovers the linear workgroup index of a dispatch that foldWorkgroups() spread over a 2-D grid
// (more than 65 535 workgroups do not fit in one dimension). Appended after a kernel's own text,
// so the kernel's line numbers stay those of its file. Workgroups whose index is at or beyond the
// logical count must do nothing: the last row of the grid may be partly filled.
fn linear_workgroup_index(workgroup_id: vec3<u32>, num_workgroups: vec3<u32>) -> u32 {
  return workgroup_id.x + workgroup_id.y * num_workgroups.x;
}
