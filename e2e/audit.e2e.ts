import path from 'node:path';
import { englishOnlyTexts, lowContrastTexts, untranslatedTexts } from './support/audit';
import { useE2E } from './support/stack';

// The tour's audits (support/audit.ts) on a page made to fail them: a broken audit would pass every screen.
const e2e = useE2E();

e2e.test('the audits see faint text, text on a translucent layer, and English left in a Chinese page', async () => {
  const page = await e2e.newPage();
  await page.setContent(`
    <body style="background:#fff">
      <p style="color:#aaa">faint grey on white</p>
      <div style="background:rgba(0,0,0,0.9)"><p style="color:#555">dark grey on near-black</p></div>
      <p style="color:#222">readable</p>
      <button disabled style="color:#ddd">disabled is exempt</button>
      <p>工作流</p><p>Save settings</p>
    </body>`);
  const low = await lowContrastTexts(page);
  expect(low.map((item) => item.text)).toEqual(['faint grey on white', 'dark grey on near-black']);
  expect(await untranslatedTexts(page, englishOnlyTexts(path.resolve(__dirname, '..')))).toEqual(['Save settings']);
});
