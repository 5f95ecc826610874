// A test file that opens the workflow editor imports this module first.
//
// It loads the editor's lazy chunk (React Flow, the inspector, the run panel, the assistant) and the
// signed-in shell with the test file, before any test starts. Loaded by the first render instead,
// on a cold Jest cache ts-jest compiled those modules inside the test's first wait. The route still
// renders them through React.lazy; the import only finds them already in the module registry.
import { configure } from '@testing-library/react';
import '../components/AppShell';
import '../features/workflows/editor/WorkflowEditorPage';

// The editor's first render in jsdom (React Flow measuring every node, the whole shell around it)
// takes 1–2 s alone, and more than the 3 s wait and the 5 s test every other file gets
// (src/test/setup.ts) while the server projects fill both cores in CI: an editor test failed so
// twice in CI (InsertAfter, UndoAddedStep). These limits hold for the files that import this one.
configure({ asyncUtilTimeout: 10_000 });
jest.setTimeout(20_000);
