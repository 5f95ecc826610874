import type { StepTypeDescription } from './step-type';

export const dateParts: StepTypeDescription = {
  id: 'date_parts',
  name: 'Date parts',
  description:
    'Take parts of a date or timestamp column into new columns named column_part: year, quarter, month, day, weekday (1 = Monday … 7 = Sunday), ISO week, day of year, hour, minute, or the date as YYYY-MM-DD text. A text column is read with a date format you give.',
  category: 'transform',
  tags: ['date', 'time', 'year', 'month', 'weekday'],
  params: [
    { name: 'column', type: 'column', label: 'Date column', help: 'A date or timestamp column, or a text column when you give a format.', required: true },
    {
      name: 'parts',
      type: 'json',
      label: 'Parts',
      help: 'A JSON list of parts (at most 20): year, quarter, month, day, weekday, week, day_of_year, hour, minute, iso_date. E.g. ["year", "month"] adds order_date_year and order_date_month.',
      required: true,
      default: ['year', 'month', 'day'],
    },
    {
      name: 'format',
      type: 'string',
      label: 'Text format',
      help: 'For a text column: how its dates are written, in strptime codes, e.g. %d/%m/%Y or %Y-%m-%d %H:%M. Text that does not fit gives empty parts.',
      required: false,
      default: '',
      max_length: 100,
    },
  ],
  inputs: { min: 1, max: 1 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free.' },
  i18n: {
    'zh-CN': {
      name: '日期拆分',
      description:
        '从日期或日期时间列中取出各部分，写入名为“列名_部分”的新列：年、季度、月、日、星期（1 = 周一 … 7 = 周日）、ISO 周数、一年中的第几天、小时、分钟，或 YYYY-MM-DD 格式的日期文本。文本列需要给出日期格式才能读取。',
      params: {
        column: { label: '日期列', help: '日期或日期时间列；给出格式时也可以是文本列。' },
        parts: {
          label: '部分',
          help: '由部分名称组成的 JSON 列表（最多 20 项）：year、quarter、month、day、weekday、week、day_of_year、hour、minute、iso_date。例如 ["year", "month"] 会新增 order_date_year 和 order_date_month。',
        },
        format: { label: '文本格式', help: '用于文本列：日期的写法，使用 strptime 格式代码，例如 %d/%m/%Y 或 %Y-%m-%d %H:%M。不符合格式的文本得到空值。' },
      },
      cost_note: '免费。',
    },
  },
};
