import type { Translation } from '../../i18n/catalog.ts';
import type { Messages } from './messages.ts';

const zh: Translation<Messages> = {
  'hillis-steele.title': 'Hillis–Steele 扫描',
  'hillis-steele.description': '每个元素依次加上它左边第 1、2、4……个位置的元素，共 log2 n 步。步数少，但每一步几乎都要碰到每个元素：总共 n·log2 n − (n − 1) 次加法，而一个串行循环只需 n − 1 次。共享内存中的两个缓冲区轮流使用，这样不会有人覆盖别人还在读的值。',
  'blelloch.title': 'Blelloch 扫描（工作高效）',
  'blelloch.description': '先在原地自底向上建一棵规约树（上扫，up-sweep），把根换成 0，再沿树往下走（下扫，down-sweep）：每个结点把自己的值传给左孩子，把自己的值加上左孩子的旧值交给右孩子。共 2(n − 1) 次加法，每个线程处理两个元素；但在跨步 s 时，通道之间相隔 2s 个字，在共享内存中撞上同一个存储体。',
  'blelloch-padded.title': 'Blelloch，无冲突填充',
  'blelloch-padded.description': '同样的上扫和下扫，但在共享内存中每 32 个字之后空出一个字（index + index / 32）。原本挤在同一存储体上的跨步通道现在落在 32 个不同的存储体上：加法次数不变，没有存储体冲突，只多用 1/32 的内存。',
  'subgroup.title': '子组（线程束）扫描',
  'subgroup.description': '每个线程束用 subgroupInclusiveAdd 在寄存器里扫描自己的元素，不用共享内存也不用屏障；之后一次屏障，每个线程束再加上它前面各线程束的总和。适用于设备选择的任何子组大小（SwiftShader 上为 4，NVIDIA 上为 32）。',
  'single-pass.title': '单遍扫描（带回退的解耦回看）',
  'single-pass.description': '一次调度处理任意长度。每个线程块扫描自己的分块，发布该分块的总和，并读取前面各分块已发布的总和来得到自己的前缀。如果某个前驱还没发布，它不去等（WebGPU 不保证那个线程块一定会运行）：它自己把那个分块加一遍。每个元素只读一次、写一次，和复制一样。',
  'single-pass-vec4.title': '单遍扫描，vec4 与子组（整个子组一起回看）',
  'single-pass-vec4.description': '为带宽而写的单遍扫描：每个线程加载 8 个 vec4（32 个元素，每次线程束加载 512 个连续字节），分块用子组扫描加一次屏障完成，一个子组每次访存往返最多回看一个子组那么多的前驱。一直不发布的前驱仍会直接从输入求和，所以没有线程块会无限期等待。',
  'summed-area.title': '二维前缀和（积分图）',
  'summed-area.description': '先扫描每一行，再扫描结果的每一列：之后每个格子保存从左上角到它自己的矩形之和。每行由一个线程块扫描，每列由一个线程扫描；线程向下走时，同一线程束的邻居在走相邻的列（合并访存）。',
  'scan.title': '前缀和（扫描）',
  'scan.summary': '让每个元素变成它之前所有元素之和：Hillis–Steele 的对数步网络对比 Blelloch 工作高效的上扫与下扫，还有无冲突填充、线程束扫描和单遍扫描。',
  'scan-sizeof-bound.title': '以 sizeof 为界的循环',
  'scan-sizeof-bound.goal': '让每个分块中的每个元素都保存分块内它之前所有元素之和，而不只是最后八个。',
  'scan-sizeof-bound.hint': '在时间轴上数屏障阶段：循环在偏移 1、2、4 之后就停了，正如教程的核函数把循环上界写成指针的 sizeof（8 字节）而不是元素个数时那样。',
  'scan-step-barrier.title': '过早读取邻居',
  'scan-step-barrier.goal': '让扫描的每一步只读取上一步已经写完的值，使结果在任何 GPU 上都成立。',
  'scan-step-barrier.hint': '在共享内存视图中进入第二个偏移：某个线程束读取 buf[cur + lid - offset]，而另一个线程束在同一阶段稍后才写它；竞争标注会标出这一行。',
  'check.length': '输出有 {got} 个元素，应为 {want} 个',
  'check.f32': '第 {i} 个元素为 {got}，与双精度结果 {want} 的差超过 {bound}',
  'ui.treeTitle': '扫描数据流',
  'ui.panel': '扫描的上下扫、工作量与存储体',
};
export default zh;
