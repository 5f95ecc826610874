import { newQuickJSWASMModuleFromVariant, newVariant, RELEASE_SYNC, DEBUG_SYNC, type QuickJSSyncVariant, type QuickJSWASMModule } from 'quickjs-emscripten';

/**
 * The QuickJS WebAssembly module, compiled and instantiated once per process (per memory limit)
 * on first use and shared by every batch: each batch still gets a runtime and a context of its own,
 * so nothing one batch leaves behind is visible to the next.
 *
 * The memory limit is the module's WebAssembly memory, not QuickJS's own: this build has no
 * `malloc_usable_size`, so QuickJS's `setMemoryLimit` counts allocations rather than bytes (a
 * 16 MiB limit let a runtime take 248 MiB). A `WebAssembly.Memory` with a maximum is a hard cap:
 * past it malloc fails and QuickJS throws "out of memory" within milliseconds. A batch runs
 * synchronously from its runtime's creation to its disposal, so one module never holds two
 * batches at once and the cap is the batch's.
 *
 * If a module ever fails at the WebAssembly level (the host's stack ran out inside it, an abort),
 * its memory can no longer be trusted: `discardQuickJS` drops it and the next batch loads a fresh one.
 */
const WASM_PAGE = 64 * 1024;
/** What the module asks for at start (its static data, C stack and first heap). */
export const QUICKJS_INITIAL_MEMORY_BYTES = 16 * 1024 * 1024;

const modules = new Map<number, Promise<QuickJSWASMModule>>();

/**
 * The library's variants load their Emscripten glue with a dynamic `import()` of an .mjs file,
 * which Jest's CommonJS sandbox cannot run; the same glue ships as CommonJS, so we require that.
 * Same WebAssembly, same FFI.
 */
function syncVariant(build: 'release' | 'debug'): QuickJSSyncVariant {
  const base = build === 'release' ? RELEASE_SYNC : DEBUG_SYNC;
  return {
    ...base,
    importModuleLoader: () =>
      Promise.resolve(
        build === 'release'
          ? // eslint-disable-next-line @typescript-eslint/no-require-imports
            require('@jitl/quickjs-wasmfile-release-sync/emscripten-module')
          : // eslint-disable-next-line @typescript-eslint/no-require-imports
            require('@jitl/quickjs-wasmfile-debug-sync/emscripten-module'),
      ),
  } as QuickJSSyncVariant;
}

/**
 * A new module whose WebAssembly memory can never exceed `maxMemoryBytes` (rounded down to 64 KiB
 * pages); null: the build's own maximum (the debug build, with its sanitizer, cannot take a memory
 * from outside).
 */
export function newQuickJS(maxMemoryBytes: number | null, build: 'release' | 'debug' = 'release'): Promise<QuickJSWASMModule> {
  if (maxMemoryBytes === null) return newQuickJSWASMModuleFromVariant(syncVariant(build));
  const initial = QUICKJS_INITIAL_MEMORY_BYTES / WASM_PAGE;
  const maximum = Math.max(initial, Math.floor(maxMemoryBytes / WASM_PAGE));
  return newQuickJSWASMModuleFromVariant(newVariant(syncVariant(build), { wasmMemory: new WebAssembly.Memory({ initial, maximum }) }));
}

/** The shared module for this memory limit. */
export function loadQuickJS(maxMemoryBytes: number): Promise<QuickJSWASMModule> {
  let loading = modules.get(maxMemoryBytes);
  if (!loading) {
    loading = newQuickJS(maxMemoryBytes);
    modules.set(maxMemoryBytes, loading);
    loading.catch(() => modules.delete(maxMemoryBytes));
  }
  return loading;
}

export function discardQuickJS(maxMemoryBytes: number): void {
  modules.delete(maxMemoryBytes);
}
