// Stylesheets are imported for their side effect: esbuild bundles them into the build's CSS file.
declare module '*.css';
