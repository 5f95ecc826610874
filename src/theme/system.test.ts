import { system } from './system';

// The web app's tsconfig has no Node types; the two calls this test needs, typed here.
interface DirEntry {
  name: string;
  isDirectory(): boolean;
}
const fs = jest.requireActual<{
  readdirSync(dir: string, options: { withFileTypes: true }): DirEntry[];
  readFileSync(file: string, encoding: 'utf8'): string;
}>('node:fs');

// system.ts includes only the recipes of the Chakra components the app uses (the rest stay out of
// the first download). A component used without its recipe renders unstyled, so every Chakra
// name the app imports must be listed below, with the recipe it needs (null: none).

const recipeOf: Record<string, string | null> = {
  Alert: 'alert',
  AspectRatio: null,
  Avatar: 'avatar',
  Badge: 'badge',
  Box: null,
  Breadcrumb: 'breadcrumb',
  Button: 'button',
  ButtonGroup: 'button',
  Card: 'card',
  Center: null,
  chakra: null,
  Checkbox: 'checkbox',
  Combobox: 'combobox',
  createListCollection: null,
  ChakraProvider: null,
  CloseButton: 'button',
  Container: 'container',
  createSystem: null,
  DataList: 'dataList',
  defaultBaseConfig: null,
  defineConfig: null,
  Dialog: 'dialog',
  Drawer: 'drawer',
  EmptyState: 'emptyState',
  Field: 'field',
  Flex: null,
  Group: null,
  Heading: 'heading',
  HStack: null,
  Icon: 'icon',
  IconButton: 'button',
  Image: null,
  Input: 'input',
  InputGroup: 'inputAddon',
  Link: 'link',
  Menu: 'menu',
  NativeSelect: 'nativeSelect',
  Popover: 'popover',
  Portal: null,
  Progress: 'progress',
  Separator: 'separator',
  SimpleGrid: null,
  Skeleton: 'skeleton',
  Spinner: 'spinner',
  Stack: null,
  Switch: 'switch',
  Table: 'table',
  Tabs: 'tabs',
  Tag: 'tag',
  Text: null,
  Textarea: 'textarea',
  VisuallyHidden: null,
};

function chakraImportsOfTheApp(): Set<string> {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        const source = fs.readFileSync(full, 'utf8');
        for (const match of source.matchAll(/import\s+(?!type\b)\{([^}]*)\}\s+from\s+'@chakra-ui\/react'/g)) {
          for (const raw of match[1].split(',')) {
            const name = raw.trim();
            if (name && !name.startsWith('type ')) names.add(name.split(/\s+as\s+/)[0]);
          }
        }
      }
    }
  };
  // This file is src/theme/system.test.ts: walk src/.
  walk(expect.getState().testPath!.replace(/[\\/]theme[\\/][^\\/]+$/, ''));
  return names;
}

describe('the design system', () => {
  it('knows every Chakra component the app imports (add new ones to this list and their recipe to system.ts)', () => {
    expect(chakraImportsOfTheApp().size).toBeGreaterThan(30);
    const unknown = [...chakraImportsOfTheApp()].filter((name) => !(name in recipeOf));
    expect(unknown).toEqual([]);
  });

  it('has the recipe of every component the app uses', () => {
    const missing = [...chakraImportsOfTheApp()]
      .map((name) => recipeOf[name])
      .filter((key): key is string => Boolean(key))
      .filter((key) => !system.isRecipe(key) && !system.isSlotRecipe(key));
    expect([...new Set(missing)]).toEqual([]);
  });

  it('leaves out the recipes of components the app does not use', () => {
    for (const unused of ['accordion', 'carousel', 'colorPicker', 'datePicker', 'treeView', 'qrCode']) {
      expect([unused, system.isSlotRecipe(unused)]).toEqual([unused, false]);
    }
  });
});
