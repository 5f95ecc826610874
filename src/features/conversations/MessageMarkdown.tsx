import { Box } from '@chakra-ui/react';
import Markdown from 'markdown-to-jsx';
import { memo } from 'react';

// The assistant's markdown as React elements. Raw HTML in a message is shown as text, never
// parsed (a model's answer may quote record contents); links open in a new tab without a referrer.

const options = {
  disableParsingRawHTML: true,
  forceBlock: true,
  overrides: {
    a: { props: { target: '_blank', rel: 'noopener noreferrer' } },
  },
} as const;

export const MessageMarkdown = memo(function MessageMarkdown({ text }: { text: string }) {
  return (
    <Box
      textStyle="sm"
      lineHeight="tall"
      wordBreak="break-word"
      css={{
        '& p': { marginBlock: '0.4em' },
        '& p:first-of-type': { marginTop: 0 },
        '& ul, & ol': { paddingInlineStart: '1.4em', marginBlock: '0.4em' },
        '& ul': { listStyleType: 'disc' },
        '& ol': { listStyleType: 'decimal' },
        '& code': { fontFamily: 'mono', fontSize: '0.9em', bg: 'bg.muted', paddingInline: '0.25em', borderRadius: 'sm' },
        '& pre': { bg: 'bg.muted', padding: '2', borderRadius: 'md', overflowX: 'auto', marginBlock: '0.5em' },
        '& pre code': { bg: 'transparent', padding: 0 },
        '& a': { color: 'brand.fg', textDecoration: 'underline' },
        '& h1, & h2, & h3, & h4': { fontWeight: 'semibold', marginBlock: '0.5em' },
        '& table': { borderCollapse: 'collapse', marginBlock: '0.5em' },
        '& th, & td': { borderWidth: '1px', borderColor: 'border.muted', paddingInline: '1.5', paddingBlock: '0.5' },
      }}
    >
      <Markdown options={options}>{text}</Markdown>
    </Box>
  );
});
