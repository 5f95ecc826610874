// A test file that opens the workflow editor imports this module first.
//
// It loads the editor's lazy chunk (React Flow, the inspector, the run panel, the assistant) and the
// signed-in shell with the test file, before any test starts. Loaded by the first render instead,
// on a cold Jest cache ts-jest compiled those modules inside the test's first wait. The route still
// renders them through React.lazy; the import only finds them already in the module registry.
import '../components/AppShell';
import '../features/workflows/editor/WorkflowEditorPage';
