import type { Translation } from '../../../../i18n/catalog.ts';
import type { Messages } from './messages.ts';

const zh: Translation<Messages> = {
  title: '扫描：Hillis–Steele 对比 Blelloch',
  summary: '并行计算所有前缀和的两种方法：步数更少，或工作量更少——以及填充对存储体的作用。',
  's1.title': 'Hillis–Steele：log₂ n 步',
  's1.narrative': '每个元素依次加上它左边第 1、2、4……个位置的元素。经过 log₂ n 步，每个元素都保存了自己的前缀和。步数少，但几乎每个线程每一步都要做加法：约 n·log₂ n 次加法，而一个循环只需 n − 1 次。',
  's1.lookAt': 'Hillis–Steele 网络和工作量计数器',
  's2.title': '统计工作量',
  's2.narrative': '工作量计数器根据执行记录统计核函数实际做的每一次加法。先算出 256 个元素时 n·log₂ n − (n − 1) 的值，再和计数器对照。',
  's2.prompt': 'Hillis–Steele 在这个分块上做了多少次加法？',
  's3.title': 'Blelloch 的上扫',
  's3.narrative': 'Blelloch 先建一棵归约树（上扫）：每一层活动线程减半，最后根保存总和。每个线程处理两个元素，所以 256 个线程覆盖 512 个元素。',
  's3.lookAt': '逐层生长的上扫树',
  's4.title': '根清零',
  's4.narrative': '保存总和的根被置为 0：空集之和，这正是排他扫描中第一个元素应得到的值。下扫把它沿树推回去；包含扫描的结果则从错开一位的地方读出。',
  's5.title': '下扫',
  's5.narrative': '向下经过每个结点时，左孩子取父结点的值，右孩子取父结点的值加上左孩子的旧值。经过 log₂ n 层，每个元素都保存了它之前所有元素之和——总共 2(n − 1) 次加法。',
  's5.lookAt': '下扫树中的虚线（左）和实线（右）边',
  's6.title': '工作高效，但存储体要付账',
  's6.narrative': 'Blelloch 的加法次数按 n 增长，而不是 n·log₂ n：在工作量计数器上数一数。但它的树的各层访问相隔 2、4、8……个字的位置，这些字会挤到同一个存储体上。存储体表格把它与每 32 个字插入一个空字的填充变体做对比。',
  's6.prompt': 'Blelloch 在这个分块上做了多少次加法？',
  's7.title': '填充消除了冲突',
  's7.narrative': '填充变体把第 i 个元素存放在 i + ⌊i / 32⌋ 处。跨步访问现在落到不同的存储体上，加法次数不变：看看存储体表格有什么变化。',
  's7.prompt': '带填充的 Blelloch 扫描有多少次共享内存存储体冲突？',
  's2.explain': '工作量计数器显示 {answer}：八步，每步分别做 255、254、252……次加法。',
  's6.explain': '工作量计数器显示 {answer} = 2·(512 − 1)：上扫 n − 1 次，下扫 n − 1 次。',
  's7.explain': '指标面板和存储体表格都显示 {answer}。',
};
export default zh;
