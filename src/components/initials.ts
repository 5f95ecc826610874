// Avatar initials taken by grapheme (what a reader sees as one character), not by UTF-16 unit:
// Chakra's own fallback uses charAt(0), which cuts an emoji such as "🦊" in half and shows "�".

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

function firstGrapheme(word: string): string {
  for (const { segment } of graphemes.segment(word)) return segment;
  return '';
}

/** "Ada Lovelace" → "AL", "鲍勃 Bob 🦊" → "鲍🦊", "Ada" → "A": first and last word's first grapheme. */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '';
  const first = firstGrapheme(words[0]);
  return words.length > 1 ? `${first}${firstGrapheme(words[words.length - 1])}` : first;
}
