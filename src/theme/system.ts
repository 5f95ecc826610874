import { createSystem, defaultBaseConfig, defineConfig } from '@chakra-ui/react';
import {
  alertSlotRecipe,
  animationStyles,
  avatarSlotRecipe,
  badgeRecipe,
  breadcrumbSlotRecipe,
  breakpoints,
  buttonRecipe,
  cardSlotRecipe,
  checkboxSlotRecipe,
  comboboxSlotRecipe,
  containerRecipe,
  cssVarsPrefix,
  cssVarsRoot,
  dataListSlotRecipe,
  dialogSlotRecipe,
  drawerSlotRecipe,
  emptyStateSlotRecipe,
  fieldSlotRecipe,
  globalCss,
  headingRecipe,
  iconRecipe,
  inputAddonRecipe,
  inputRecipe,
  keyframes,
  layerStyles,
  linkRecipe,
  menuSlotRecipe,
  nativeSelectSlotRecipe,
  popoverSlotRecipe,
  progressSlotRecipe,
  semanticTokens,
  separatorRecipe,
  skeletonRecipe,
  spinnerRecipe,
  switchSlotRecipe,
  tableSlotRecipe,
  tabsSlotRecipe,
  tagSlotRecipe,
  textareaRecipe,
  textStyles,
  tokens,
} from '@chakra-ui/react/theme';

// Stepwise's own design system on top of Chakra's defaults: a deep indigo-violet brand usable as
// `colorPalette="brand"`, a font stack that renders Chinese well, slightly rounder corners.
//
// Chakra's `defaultConfig` carries the recipes of all its ~80 components, and every one ends up in
// the first download. This system is Chakra's base config (conditions, utilities) plus its
// default theme with ONLY the recipes of the components the app uses. A component added to the
// app needs its recipe here, or it renders unstyled (theme.test.ts lists what the app imports).

/** Chakra's default look (tokens, keyframes, text styles, global CSS), without its recipes. */
const chakraTheme = defineConfig({
  preflight: true,
  cssVarsPrefix,
  cssVarsRoot,
  globalCss,
  theme: {
    breakpoints,
    keyframes,
    tokens,
    semanticTokens,
    textStyles,
    layerStyles,
    animationStyles,
    recipes: {
      badge: badgeRecipe,
      button: buttonRecipe,
      container: containerRecipe,
      heading: headingRecipe,
      icon: iconRecipe,
      input: inputRecipe,
      inputAddon: inputAddonRecipe,
      link: linkRecipe,
      separator: separatorRecipe,
      skeleton: skeletonRecipe,
      spinner: spinnerRecipe,
      textarea: textareaRecipe,
    },
    slotRecipes: {
      alert: alertSlotRecipe,
      avatar: avatarSlotRecipe,
      breadcrumb: breadcrumbSlotRecipe,
      card: cardSlotRecipe,
      checkbox: checkboxSlotRecipe,
      combobox: comboboxSlotRecipe,
      dataList: dataListSlotRecipe,
      dialog: dialogSlotRecipe,
      drawer: drawerSlotRecipe,
      emptyState: emptyStateSlotRecipe,
      field: fieldSlotRecipe,
      menu: menuSlotRecipe,
      nativeSelect: nativeSelectSlotRecipe,
      popover: popoverSlotRecipe,
      progress: progressSlotRecipe,
      switch: switchSlotRecipe,
      table: tableSlotRecipe,
      tabs: tabsSlotRecipe,
      tag: tagSlotRecipe,
    },
  },
});

const fontStack = [
  'Inter',
  'ui-sans-serif',
  'system-ui',
  '-apple-system',
  '"Segoe UI"',
  'Roboto',
  '"Helvetica Neue"',
  'Arial',
  '"Noto Sans SC"',
  '"PingFang SC"',
  '"Hiragino Sans GB"',
  '"Microsoft YaHei"',
  'sans-serif',
].join(', ');

const config = defineConfig({
  globalCss: {
    'html, body': { bg: 'bg', color: 'fg', fontFeatureSettings: '"cv11", "ss01"' },
  },
  theme: {
    tokens: {
      fonts: {
        heading: { value: fontStack },
        body: { value: fontStack },
      },
      colors: {
        brand: {
          50: { value: '#f4f2ff' },
          100: { value: '#ebe7ff' },
          200: { value: '#d8d1ff' },
          300: { value: '#b9abff' },
          400: { value: '#957cfc' },
          500: { value: '#7650f5' },
          600: { value: '#6434e8' },
          700: { value: '#5426cc' },
          800: { value: '#4521a5' },
          900: { value: '#3a1f85' },
          950: { value: '#22115a' },
        },
      },
    },
    semanticTokens: {
      colors: {
        // The slots Chakra's recipes read through colorPalette.
        brand: {
          solid: { value: { _light: '{colors.brand.600}', _dark: '{colors.brand.500}' } },
          contrast: { value: 'white' },
          fg: { value: { _light: '{colors.brand.700}', _dark: '{colors.brand.300}' } },
          muted: { value: { _light: '{colors.brand.100}', _dark: '{colors.brand.900}' } },
          subtle: { value: { _light: '{colors.brand.50}', _dark: '{colors.brand.950}' } },
          emphasized: { value: { _light: '{colors.brand.200}', _dark: '{colors.brand.800}' } },
          focusRing: { value: { _light: '{colors.brand.500}', _dark: '{colors.brand.400}' } },
        },
        // Chakra's red.500 is 3.8:1 on white, under WCAG AA for the small error texts (a failed
        // step's message in the run panel, upload errors); red.700 keeps 4.5:1 on bg.error too.
        fg: {
          error: { value: { _light: '{colors.red.700}', _dark: '{colors.red.400}' } },
        },
        // Soft page backgrounds for the auth screens and landing hero.
        canvas: {
          value: { _light: '#f7f7fb', _dark: '#0c0b12' },
        },
      },
      radii: {
        l1: { value: '{radii.sm}' },
        l2: { value: '{radii.md}' },
        l3: { value: '{radii.xl}' },
      },
    },
  },
});

export const system = createSystem(defaultBaseConfig, chakraTheme, config);
