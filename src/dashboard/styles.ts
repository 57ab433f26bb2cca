/**
 * The dashboard's whole stylesheet (~4 KB), inlined in each page under a CSP
 * nonce: one request per page, no build step, nothing to serve before sign-in.
 * Colours meet WCAG AA contrast on white; focus is always visible.
 */
export const CSS = `
:root{--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--bg:#fff;--soft:#f6f8fa;--accent:#0a58ca;--accent-fg:#fff;--ok:#116329;--bad:#b42318;--warn:#7a4b00;--hit:#0f7b6c;--focus:#b35900}
*{box-sizing:border-box}
html{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
body{margin:0}
a{color:var(--accent)}
a:hover{text-decoration-thickness:2px}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:.5rem;background:var(--bg);padding:.25rem .5rem;z-index:2}
header.top{display:flex;flex-wrap:wrap;align-items:center;gap:1rem;padding:.6rem 1.25rem;border-bottom:1px solid var(--line);background:var(--soft)}
header.top .brand{font-weight:700;margin-right:1rem;color:var(--fg);text-decoration:none}
header.top nav ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;margin:0;padding:0}
header.top nav a[aria-current=page]{font-weight:700;text-decoration-thickness:3px}
header.top .who{margin:0 0 0 auto;color:var(--muted);min-width:0;overflow-wrap:anywhere}
header.top form{margin-left:auto}
header.top .who+form{margin-left:0}
main{max-width:72rem;margin:0 auto;padding:1.25rem;min-width:0}
main>*{max-width:100%}
h1{font-size:1.6rem;margin:.25rem 0 1rem;overflow-wrap:anywhere}h1 .id{max-width:100%}h2{font-size:1.2rem;margin:2rem 0 .75rem}
.muted{color:var(--muted)}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
table{border-collapse:collapse;width:100%;margin:.5rem 0}
.scroll{overflow-x:auto;max-width:100%}
th,td{text-align:left;padding:.45rem .6rem;border-bottom:1px solid var(--line);vertical-align:top}
th{background:var(--soft);font-weight:600;white-space:nowrap}
tbody th{background:none;white-space:normal}table.wrap-heads thead th{white-space:normal}
td code{white-space:nowrap}
.id{display:inline-flex;gap:.3em;max-width:16rem;white-space:nowrap;vertical-align:bottom}.id>*{overflow:hidden;text-overflow:ellipsis;min-width:1.5em}.id>span+code{flex-shrink:0;max-width:50%}.id.s{max-width:12rem}.id.l{max-width:30rem}.id.xl{max-width:40rem}dl.facts .id,h1 .id,.alert .id{max-width:100%}h1 .id{display:inline;white-space:normal}h1 .id>*{overflow:visible}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
caption{text-align:left;font-weight:600;padding:.25rem 0}
form.stack{display:grid;gap:.75rem;max-width:40rem}form.stack.wide{max-width:56rem}th .hint{white-space:normal}
fieldset{border:1px solid var(--line);border-radius:6px;padding:.75rem 1rem;margin:0}
legend{font-weight:600;padding:0 .25rem}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(11rem,100%),1fr));gap:.75rem;align-items:end}.grid>*{min-width:0}
label{display:block;font-weight:600;margin-bottom:.2rem}
.hint{display:block;font-weight:400;color:var(--muted);font-size:.875rem}
input,select,textarea{max-width:100%;min-width:0;font:inherit;color:inherit;padding:.4rem .5rem;border:1px solid #8c959f;border-radius:4px;background:var(--bg);width:100%}
input[type=checkbox]{width:auto;margin-right:.4rem}
label.check{display:flex;align-items:center;font-weight:400}
input[aria-invalid=true],textarea[aria-invalid=true]{border-color:var(--bad);border-width:2px}
button,.button{font:inherit;font-weight:600;padding:.45rem .9rem;border-radius:4px;border:1px solid var(--accent);background:var(--accent);color:var(--accent-fg);cursor:pointer;text-decoration:none;display:inline-block}
button.secondary,.button.secondary{background:var(--bg);color:var(--accent)}
button.danger{background:var(--bad);border-color:var(--bad)}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
.inline{display:inline}
.alert{border:1px solid;border-left-width:6px;border-radius:4px;padding:.6rem .9rem;margin:0 0 1rem}
.alert.error{border-color:var(--bad);background:#fff5f4}
.alert.ok{border-color:var(--ok);background:#f1faf3}
.alert.warn{border-color:var(--warn);background:#fff8e6}
details>summary{cursor:pointer;font-weight:600;margin:.75rem 0}
.badge{display:inline-block;padding:0 .45rem;border-radius:999px;font-size:.85rem;font-weight:600;border:1px solid}
.badge.create,.badge.active,.badge.ok,.badge.delivered{color:var(--ok)}.badge.failed{color:var(--bad)}.badge.retrying{color:var(--warn)}.badge.delete{color:var(--bad)}
ul.changes{margin:.2rem 0 0;padding-left:1.1rem;min-width:18rem;overflow-wrap:anywhere}ul.changes del{color:var(--bad)}ul.changes ins{color:var(--ok);text-decoration:none}
.badge.open,.badge.failing{color:var(--bad)}.badge.half-open{color:var(--warn)}.badge.healthy{color:var(--ok)}.badge.idle{color:var(--muted)}tr.unhealthy th{box-shadow:inset 4px 0 var(--bad)}
table.health .id{max-width:11rem}table.health td.breaker{min-width:11rem}.id.long{max-width:20rem}fieldset.target .id{max-width:100%}
.badge.disabled,.badge.revoked,.badge.error,.badge.block,.badge.exhausted,.badge.refusing{color:var(--bad)}.badge.near_limit{color:var(--warn)}.badge.flag,.badge.redact,.badge.quarantine{color:var(--warn)}.badge.HIT,.badge.SEMANTIC{color:var(--hit)}
.secret{display:flex;gap:.5rem;max-width:48rem}.alert{overflow-wrap:anywhere}.secret input{font-family:ui-monospace,monospace}
dl.facts{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.3rem 1rem;margin:0}
dl.facts dt{font-weight:600}dl.facts dd{margin:0;overflow-wrap:anywhere;min-width:0}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(10rem,1fr));gap:.75rem;margin:.5rem 0}
.card{border:1px solid var(--line);border-radius:6px;padding:.6rem .8rem}.card b{display:block;font-size:1.3rem}
meter{width:100%;height:1rem}
figure{margin:.5rem 0 1rem;overflow-x:auto;max-width:100%}figcaption{font-weight:600}
svg.chart{width:100%;min-width:45rem;max-width:60rem;height:auto;display:block}
svg .bar{fill:var(--accent)}svg .bar.alt{fill:var(--hit)}svg .line{fill:none;stroke:var(--accent);stroke-width:2}
svg .dot{fill:var(--accent)}svg text{font-size:11px;fill:var(--muted)}svg .axis{stroke:var(--line)}
.legend{display:flex;gap:1rem;font-size:.875rem;color:var(--muted)}
.sw{display:inline-block;width:.8rem;height:.8rem;margin-right:.3rem;vertical-align:middle;background:var(--accent)}.sw.alt{background:var(--hit)}
pre{background:var(--soft);border:1px solid var(--line);border-radius:4px;padding:.75rem;overflow:auto;max-height:28rem;white-space:pre-wrap;word-break:break-word}
@media (max-width:40rem){main{padding:.75rem}th,td{padding:.35rem}header.top{padding:.5rem .75rem;gap:.5rem}header.top .who{margin-left:0}form.stack,form.stack.wide{max-width:100%}.grid{grid-template-columns:1fr}dl.facts{grid-template-columns:minmax(0,1fr)}dl.facts dd{margin-bottom:.4rem}.id,.id.s,.id.l,.id.xl{max-width:11rem}dl.facts .id,h1 .id{max-width:100%}}
`;
