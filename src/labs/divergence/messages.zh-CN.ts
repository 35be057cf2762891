import type { Translation } from '../../i18n/catalog.ts';
import type { Messages } from './messages.ts';

const zh: Translation<Messages> = {
  'divergence.title': '线程束分化的模式',
  'divergence.summary':
    '同样的两个分支，两种选法：按线程编号的奇偶来选，每个线程束都会分化；按线程束编号的奇偶来选，整个线程束一起走同一边。数一数分化的分支。',
  'even-odd.title': '奇偶交错：if (tid % 2 == 0)',
  'even-odd.summary':
    '偶数线程走第一个分支，奇数线程走第二个。相邻的通道意见不一，所以每个线程束都要先后执行两个分支，每次屏蔽一半通道：每个线程束一次分化。',
  'warp-aligned.title': '按线程束对齐：if ((tid / warpSize) % 2 == 0)',
  'warp-aligned.summary':
    '分支由线程束编号决定，一个线程束的 32 个通道意见一致：偶数号线程束走第一个分支，奇数号走第二个。工作量相同，没有线程束分化。',
  'metric.warps': '启动的线程束',
  'metric.warps.hint': '每个线程束到达分支一次',
};
export default zh;
