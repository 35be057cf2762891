import type { Translation } from '../../i18n/catalog.ts';
import type { Messages } from './messages.ts';

const zh: Translation<Messages> = {
  title: '线程、线程块与网格',
  summary: '每个线程如何找到自己的元素：一维网格里的全局索引，二维网格里的行与列，以及线程束如何切过它们。',
  'variant.vector-add.title': '向量加法（一维网格）',
  'variant.vector-add.summary': '每个元素一个线程：全局索引 = 线程块号 × 线程块大小 + 块内索引；网格跨步循环能覆盖任意 n。',
  'variant.matrix-add.title': '矩阵加法（二维网格）',
  'variant.matrix-add.summary': '线程按 16 × 16 的块排布：x 选列，y 选行，row × cols + col 在行主序存储中找到元素。',
};
export default zh;
