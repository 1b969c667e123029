// Served as a file rather than inline, so the page's CSP needs no 'unsafe-inline' for its own styles.
export const INBOX_CSS = `
body { font: 15px/1.5 system-ui, sans-serif; margin: 0; color: #1b1f24; background: #f6f7f9; }
main { max-width: 72rem; margin: 0 auto; padding: 1.5rem; }
h1 { font-size: 1.5rem; margin: 0 0 0.5rem; }
h2 { font-size: 1.1rem; margin: 1.5rem 0 0.5rem; }
.actions { display: flex; gap: 1rem; align-items: center; margin: 1rem 0; }
.actions form { margin: 0; }
button { font: inherit; padding: 0.35rem 0.9rem; border: 1px solid #b42318; color: #b42318; background: #fff; border-radius: 4px; cursor: pointer; }
table { width: 100%; border-collapse: collapse; background: #fff; }
th, td { text-align: left; padding: 0.45rem 0.6rem; border-bottom: 1px solid #dde1e6; vertical-align: top; }
a { color: #0b57d0; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; }
dt { font-weight: 600; }
dd { margin: 0; }
pre { white-space: pre-wrap; word-break: break-word; background: #fff; padding: 1rem; border: 1px solid #dde1e6; }
iframe { width: 100%; height: 36rem; border: 1px solid #dde1e6; background: #fff; }
li { word-break: break-all; }
`;
