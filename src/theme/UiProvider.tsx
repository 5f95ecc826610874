import { ChakraProvider } from '@chakra-ui/react';
import { ThemeProvider } from 'next-themes';
import type { ReactNode } from 'react';
import { system } from './system';

// Chakra's colour mode follows the `dark` class on <html>; next-themes owns that class, remembers
// the choice and follows the system setting when the user picks "system". Its inline script only
// matters for server rendering; in this client-rendered app index.html sets the class before React
// starts, so the script is marked as a data block (React 19 warns about executable ones).
const inertScript = { type: 'application/json' } as const;
export function UiProvider({ children }: { children: ReactNode }) {
  return (
    <ChakraProvider value={system}>
      <ThemeProvider attribute="class" defaultTheme="system" enableSystem disableTransitionOnChange scriptProps={inertScript}>
        {children}
      </ThemeProvider>
    </ChakraProvider>
  );
}
