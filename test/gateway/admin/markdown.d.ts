/** Markdown files imported as text (Vite's `?raw`), for tests that check the docs against the code. */
declare module '*.md?raw' {
  const text: string;
  export default text;
}
