import type { Translation } from '../i18n/catalog.ts';
import type { LabsMessages } from './labMessages.ts';

const zh: Translation<LabsMessages> = {
  'param.workgroupSize': '线程块大小',
  'param.elementType': '元素类型',
  'param.n': '规模 n',
  'parse.wholeNumber': '应为一个整数',
  'parse.range': '取值须在 {min} 到 {max} 之间',
  'parse.name': 'Warpscope 不认识这个名字',
  'notice.workgroupSize': '{variant} 是为大小为 {sizes} 的线程块编写的；改用 {size}。',
  'notice.deviceLimit': '这块 GPU 的一个线程块最多运行 {max} 个调用，而{label} {value} 需要 {need} 个；改用 {use}。',
  'notice.deviceNone': '这块 GPU 的一个线程块最多运行 {max} 个调用，这个变体提供的{label}都超出了它；内核无法在这里运行。请换一个变体。',
  'control.overDevice': '{value}（需要 {need} 个调用；这块 GPU 最多运行 {max} 个）',
  'notice.elementType': '{variant} 不支持 {type}；改用 {use}。',
  'notice.stepLimit': '逐步跟踪 {n} 个元素的记录太大；只模拟 {max} 个。下方的计时会测到更大的规模。',
  'notice.ignored': '已忽略{label}“{text}”：{error}。',
  'notice.noVariant': '这个实验没有名为“{id}”的变体；改为显示 {title}。',
  'check.length': '输出有 {got} 个元素，应为 {want} 个',
  'check.element': '第 {i} 个元素为 {got}，而 CPU 参考结果为 {want}',
};
export default zh;
