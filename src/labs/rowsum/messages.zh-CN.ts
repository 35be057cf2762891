import type { Translation } from '../../i18n/catalog.ts';
import type { Messages } from './messages.ts';

const zh: Translation<Messages> = {
  'simple.title': '简单版：跨步递增，tx % stride == 0',
  'simple.summary': '每个线程加载两个元素；跨步每层翻倍，当 tx 是跨步的倍数时，线程 tx 把第 2·tx + stride 个字加到第 2·tx 个字上。干活的线程在每个线程束内部越来越稀疏，所以每一层线程束都会分支发散。',
  'better.title': '改进版：跨步减半，tx < stride',
  'better.summary': '跨步从线程块大小开始逐层减半，前 stride 个线程把第 tx + stride 个字加到第 tx 个字上。干活的线程保持连续：在跨步小于 32 之前，整个线程束要么都干活，要么都休息。',
  'rowsum.title': '按行求和（每行一个线程块）',
  'rowsum.summary': '对 M × N 矩阵的每一行求和，每行一个线程块、每个线程两个元素：让每个线程束都分支发散的递增跨步，对比让整个线程束保持忙碌的减半跨步。',
  'param.cols': '列数 N',
  'param.rows': '行数 M',
  'notice.cols': '一个线程块对一行求和，每个线程加载两个元素，所以 N 必须是 {lengths} 之一；改用 {use}。',
  'notice.rows': '逐步跟踪 {n} 行（每行 {cols} 个元素）的记录太大；只模拟 {most} 行。',
  'metric.levels': '每行的归约树层数',
  'metric.levels.hint': 'log₂ N 个跨步',
  'metric.adds': '每行的加法次数',
  'metric.adds.hint': 'N − 1，与顺序无关',
};
export default zh;
