// A CodeMirror 6 editor for a whole definition in JSON or YAML, with the dashboard's validation errors as
// diagnostics underlined at their fields. Keyboard: Tab is NOT captured (it moves focus on, as everywhere on the
// page); Ctrl-] / Ctrl-[ indent. Uncontrolled: `initialText` is read once, at mount, and edits flow out through
// onChange; a parent that replaces the text (a mode switch, a reload) remounts the editor with a new `key`.
// Feeding the text back in as a prop would race the editor's own newer state and bounce between the two.
import { json } from '@codemirror/lang-json';
import { yaml } from '@codemirror/lang-yaml';
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { Compartment, EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import { useEffect, useRef } from 'preact/hooks';

export interface EditorProblem {
  from: number;
  to: number;
  message: string;
}

export interface CodeEditorProps {
  id: string;
  label: string;
  language: 'json' | 'yaml';
  initialText: string;
  readOnly: boolean;
  problems: EditorProblem[];
  onChange: (text: string) => void;
}

export function CodeEditor(props: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const editable = useRef(new Compartment());
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;

  useEffect(() => {
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: props.initialText,
        extensions: [
          basicSetup,
          lintGutter(),
          props.language === 'json' ? json() : yaml(),
          editable.current.of([EditorState.readOnly.of(props.readOnly), EditorView.editable.of(!props.readOnly)]),
          EditorView.contentAttributes.of({ 'aria-label': props.label, id: props.id }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) onChange.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    return () => editor.destroy();
  }, []);

  useEffect(() => {
    view.current?.dispatch({ effects: editable.current.reconfigure([EditorState.readOnly.of(props.readOnly), EditorView.editable.of(!props.readOnly)]) });
  }, [props.readOnly]);

  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    const length = editor.state.doc.length;
    const diagnostics: Diagnostic[] = props.problems.map((p) => ({
      from: Math.min(p.from, length),
      to: Math.min(Math.max(p.to, p.from), length),
      severity: 'error',
      message: p.message,
    }));
    editor.dispatch(setDiagnostics(editor.state, diagnostics));
  }, [props.problems]);

  return <div class="code-editor" ref={host} />;
}
