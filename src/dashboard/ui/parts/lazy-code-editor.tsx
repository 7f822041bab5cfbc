// The code editor, loaded on first use: CodeMirror is most of the UI's bytes and only the API editor needs it, so
// it comes as its own chunk (scripts/build-ui.mjs splits on this dynamic import). Until it arrives, a box of the
// editor's size stands in its place (no layout shift) and says it is loading.
import { useEffect, useState } from 'preact/hooks';
import type { JSX } from 'preact';
import type { CodeEditorProps } from './code-editor.tsx';

type Editor = (props: CodeEditorProps) => JSX.Element;

let loaded: Editor | undefined;

export function LazyCodeEditor(props: CodeEditorProps) {
  const [Editor, setEditor] = useState<Editor | undefined>(() => loaded);
  const [failed, setFailed] = useState<string | undefined>();
  useEffect(() => {
    if (Editor) return;
    import('./code-editor.tsx').then(
      (module) => {
        loaded = module.CodeEditor;
        setEditor(() => module.CodeEditor);
      },
      (error: unknown) => setFailed(error instanceof Error ? error.message : 'the editor could not be loaded'),
    );
  }, []);
  if (Editor) return <Editor {...props} />;
  return (
    <div class="code-editor" role="status">
      {failed ? `The editor could not be loaded: ${failed}. Reload the page.` : 'Loading the editor…'}
    </div>
  );
}
