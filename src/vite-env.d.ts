/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_API_BASE_URL?: string;
}

// The two parts of a flat catalog (vite.config.ts webCatalogs, src/i18n/catalogParts.ts).
declare module '*.json?texts=first' {
  const texts: Record<string, string>;
  export default texts;
}
declare module '*.json?texts=rest' {
  const texts: Record<string, string>;
  export default texts;
}
