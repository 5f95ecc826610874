import { Button, type ButtonProps } from '@chakra-ui/react';
import { LuLanguages } from 'react-icons/lu';
import { useLocale, useSwitchLocale } from '../i18n/useLocale';

// Offers the other language, named in that language ("中文" on English pages, "English" on Chinese
// ones), which is how people look for it. The choice is remembered in NEXT_LOCALE.
export function LanguageSwitcher(props: ButtonProps) {
  const locale = useLocale();
  const switchLocale = useSwitchLocale();
  const target = locale === 'cn' ? 'en' : 'cn';
  return (
    <Button variant="ghost" size="sm" onClick={() => switchLocale(target)} lang={target === 'cn' ? 'zh-CN' : 'en'} {...props}>
      <LuLanguages aria-hidden />
      {target === 'cn' ? '中文' : 'English'}
    </Button>
  );
}
