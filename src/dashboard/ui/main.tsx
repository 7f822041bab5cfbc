// The web UI's entry: styles and the app mounted into #app (index.html, written by scripts/build-ui.mjs).
import { render } from 'preact';
import { App } from './app.tsx';
import './styles.css';

render(<App />, document.getElementById('app')!);
